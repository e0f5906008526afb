//! The order of game instances is structural (spec/language.md §5): by the game's
//! declaration order, then its parameters, never by which instance a session created
//! first. So a query prints the same whatever the session evaluated before it.

use cgl::session::{Session, SessionConfig};

const GAMES: &str = "
game G(k = 1) {
    position n
    move n - k if n >= k
}
game H {
    position xs
    move [x - 1 for x in xs] if xs != [] and xs[0] > 0
}
";

/// Each query's printed value after evaluating `before` in the same session.
fn shown_after(before: &[&str], queries: &[&str]) -> Vec<String> {
    let mut s = Session::new(SessionConfig::default());
    let file = s.load_source("o.game", GAMES).unwrap();
    for q in before {
        s.eval_text(q, &[file]).unwrap();
    }
    queries
        .iter()
        .map(|q| {
            let v = s.eval_text(q, &[file]).unwrap();
            s.show(&v)
        })
        .collect()
}

#[test]
fn output_does_not_depend_on_which_instance_came_first() {
    let queries = [
        "moves(H([1]) | G(2))",
        "moves(G(2) | H([1]))",
        "{H([1]), G(2)}",
        "line(H([1]) | G(2))",
        "{H, G, G[k = 2], G[k = 1]}",
        "moves(G[k = 2](2) + G(2))",
    ];
    let fresh = shown_after(&[], &queries);
    // H, then G[k = 2], made first: their ids come before G's.
    let h_first = shown_after(&["H([0])", "G[k = 2](0)"], &queries);
    let g_first = shown_after(&["G(0)", "G[k = 2](0)", "H([0])"], &queries);
    let reversed: Vec<&str> = queries.iter().rev().copied().collect();
    let mut backwards = shown_after(&[], &reversed);
    backwards.reverse();
    assert_eq!(fresh, h_first);
    assert_eq!(fresh, g_first);
    assert_eq!(fresh, backwards);
    // G is declared first, so its positions come first; then by parameter.
    assert_eq!(fresh[0], "[G(1) | H([1]), G(2), G(1)]");
    assert_eq!(fresh[0], fresh[1]);
    assert_eq!(fresh[2], "{G(2), H([1])}");
    assert_eq!(fresh[3], "[G(2) | H([1]), G(2), G(1), G(0)]");
    assert_eq!(fresh[4], "{G, G[k = 2], H}");
}

/// Game values that are not numbers (`Value::Form`) order by structure too, in CGSuite's
/// order of options (`cgt::ValueTable::form_order`), not by when this thread's table of
/// canonical forms first made them. Each query runs on a new thread, so on a new table.
#[test]
fn game_values_do_not_depend_on_which_form_came_first() {
    let queries = [
        "{ {3|1}, {2|1}, {5|1} }",
        "sorted([{5|1}, ^, *, {1|-1}, *2, v, {2|1}])",
        "left_options({ {1|-1}, * | -5 })",
        "{ {{2|1} | 0}, {{3|1} | 0}, {{3|1}, * | 0} }",
    ];
    let on_a_new_thread = |before: &'static [&'static str]| {
        std::thread::spawn(move || shown_after(before, &queries))
            .join()
            .expect("no panic")
    };
    let fresh = on_a_new_thread(&[]);
    assert_eq!(fresh[0], "{{2|1}, {3|1}, {5|1}}");
    assert_eq!(fresh[1], "[*, *2, v, ^, +-1, {2|1}, {5|1}]");
    assert_eq!(fresh[2], "[*, +-1]");
    for before in [
        &["{5|1}", "{3|1}", "^", "v", "{1|-1}", "{{3|1} | 0}"][..],
        &["{1|-1} + {2|1}", "{5|1}", "*2", "^", "{{3|1}, * | 0}"][..],
    ] {
        assert_eq!(on_a_new_thread(before), fresh, "after {before:?}");
    }
}
