//! The moves the graph stores, handed to petgraph: an independent check that what cgl counts
//! and solves is the graph its rules make. The solver of `analysis::parallel` keeps its
//! positions beside the graph, without moves, on one thread too: the tests of what the graph
//! holds turn its stores off (`GraphConfig::stores`).

use cgl::session::{Session, SessionConfig};
use petgraph::algo::toposort;
use petgraph::visit::{Dfs, EdgeRef};

const CHOMP: &str = include_str!("../examples/chomp.game");
const TICTACTOE: &str = include_str!("../examples/tictactoe.game");

/// Loads `source`, evaluates `query` (whose first position is the first interned), and
/// returns the answer and the session.
fn run(source: &str, query: &str) -> (String, Session) {
    run_with(SessionConfig::default(), source, query)
}

/// The default settings with the solver's stores off: every position in the graph.
fn graph_only() -> SessionConfig {
    let mut config = SessionConfig::default();
    config.graph.stores = false;
    config
}

/// [`run`] with `config`.
fn run_with(config: SessionConfig, source: &str, query: &str) -> (String, Session) {
    let mut s = Session::new(config);
    let file = s
        .load_source("g.game", source)
        .unwrap_or_else(|d| panic!("{d:?}"));
    let value = s
        .eval_text(query, &[file])
        .unwrap_or_else(|d| panic!("{d:?}"));
    (s.show(&value), s)
}

#[test]
fn stored_moves_make_the_graph_reachable_counts() {
    for (source, start) in [
        (CHOMP, "Chomp([4, 4, 3, 1])"),
        (CHOMP, "Chomp([5; 5])"),
        (TICTACTOE, "TicTacToe.start"),
    ] {
        // `reachable` keeps no moves: a remoteness search first stores them all (for the
        // drawn tic-tac-toe start, the outcome's search does), and `reachable` then walks
        // the stored moves.
        let query =
            format!("if {start} is D or remoteness({start}) >= 0 then reachable({start}) else 0");
        // The solver's stores off, the compiled rules' search goes through the graph as the
        // interpreter's does; both store the moves.
        for compiled_rules in [true, false] {
            let mut config = graph_only();
            config.limits.compiled_rules = compiled_rules;
            let (count, s) = run_with(config, source, &query);
            walk(&count, &s, start);
        }
    }
}

/// Checks the moves stored in `s` against petgraph: the positions `reachable` counted from
/// `start`, all of them reached, no cycle, no move repeated.
fn walk(count: &str, s: &Session, start: &str) {
    let graph = s.graph().explored_graph();
    assert_eq!(graph.node_count(), s.graph().len(), "{start}");
    assert_eq!(graph.edge_count(), s.graph().edge_count(), "{start}");
    // Every position interned was reached from the start, and petgraph's search over the
    // stored moves finds as many as `reachable` counted.
    let mut dfs = Dfs::new(&graph, petgraph::graph::NodeIndex::new(0));
    let mut seen = 0;
    while dfs.next(&graph).is_some() {
        seen += 1;
    }
    assert_eq!(seen.to_string(), count, "{start}");
    assert_eq!(seen, graph.node_count(), "{start}");
    // Play ends: the graph is acyclic, and a move never repeats from one position.
    assert!(toposort(&graph, None).is_ok(), "{start}");
    for node in graph.node_indices() {
        let mut targets: Vec<_> = graph.edges(node).map(|e| e.target()).collect();
        let all = targets.len();
        targets.sort();
        targets.dedup();
        assert_eq!(targets.len(), all, "{start}: a repeated move");
    }
}

#[test]
fn reachable_keeps_no_moves_and_solves_remoteness_on_its_way() {
    // Through the graph, and with the solver's stores (which keep no moves either).
    for config in [graph_only, SessionConfig::default] {
        let run = |source, query: &str| run_with(config(), source, query);
        let (answer, s) = run(CHOMP, "reachable(Chomp([5; 5]))");
        assert_eq!(answer, "251");
        assert_eq!(s.graph().edge_count(), 0);
        // The remoteness it wrote is the general solver's, in a fresh session.
        let query = "[(outcome(p), remoteness(p)) for p in moves(Chomp([5; 5]))]";
        let (after, _) = run(CHOMP, &format!("[reachable(Chomp([5; 5])), {query}][1]"));
        let (fresh, _) = run_with(graph_only(), CHOMP, query);
        assert_eq!(after, fresh);
        // Draws too: tic-tac-toe's every option, after and without `reachable`.
        let query =
            "[(outcome(p), if p is D then -1 else remoteness(p)) for p in moves(TicTacToe.start)]";
        let (after, _) = run(
            TICTACTOE,
            &format!("[reachable(TicTacToe.start), {query}][1]"),
        );
        let (fresh, _) = run_with(graph_only(), TICTACTOE, query);
        assert_eq!(after, fresh);
    }
}

#[test]
fn many_moves_to_few_positions_are_kept_once_in_rule_order() {
    // 50 options of Dup(n) reach at most 7 positions: past 8 options the graph finds repeats
    // by a set of the ids, reused between positions (stamped, not cleared), and drops them
    // in rule order.
    let source =
        "game Dup {\n    position n\n    move (i * 3) % 7 for i in 0..50 if (i * 3) % 7 < n\n}\n";
    let (moves, s) = run(source, "[moves(Dup(n)) for n in [7, 5, 2, 0]]");
    assert_eq!(
        moves,
        "[[Dup(0), Dup(3), Dup(6), Dup(2), Dup(5), Dup(1), Dup(4)], [Dup(0), Dup(3), Dup(2), Dup(1), Dup(4)], [Dup(0), Dup(1)], []]"
    );
    let graph = s.graph().explored_graph();
    assert_eq!(graph.edge_count(), s.graph().edge_count());
}

/// `--stats`' memory counts at least what the records and the stored moves take, and at most
/// the limit's estimate (an upper bound for packed positions).
#[test]
fn measured_memory_lies_between_the_records_and_the_estimate() {
    // The solver's stores off: the positions are the graph's.
    let (_, s) = run_with(graph_only(), CHOMP, "remoteness(Chomp([6; 6]))");
    let g = s.graph();
    assert!(g.len() > 900, "{} positions", g.len());
    let floor = g.len() * 16 + g.edge_count() * 4;
    let measured = g.measured_bytes();
    assert!(measured > floor, "{measured} <= {floor}");
    assert!(
        measured < g.estimated_bytes(),
        "{measured} >= {}",
        g.estimated_bytes()
    );
}
