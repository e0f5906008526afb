//! The library face (`cgl::api`) as a program that embeds cgl uses it: sessions from text,
//! diagnostics and values as data, per-call budgets and cancellation, definitions and the
//! name at a place.

use std::time::{Duration, Instant};

use cgl::api::{
    Budget, Cancel, Code, Data, DefinitionKind, Diagnostic, Session, SessionConfig, Severity, Span,
};

fn session_with(text: &str) -> (Session, usize) {
    let mut s = Session::new(SessionConfig::default());
    let file = s
        .load_source("t.game", text)
        .unwrap_or_else(|d| panic!("does not load: {}", d[0].message));
    (s, file)
}

const NIM: &str = "game Nim { position n  move k for k in 0..n }\n";

#[test]
fn diagnostics_of_a_buffer_are_data_with_lines_columns_and_bytes() {
    let mut s = Session::new(SessionConfig::default());
    // Two errors in one buffer, after a line with a multibyte character.
    let text = "// é€\nconst A = nope\nconst B = alsonope\n";
    let errors = s.load_source("buffer.game", text).unwrap_err();
    let found: Vec<Diagnostic> = s.diagnostics(&errors);
    assert_eq!(found.len(), 2, "{found:?}");
    for (d, name) in found.iter().zip(["nope", "alsonope"]) {
        assert_eq!(d.code, Code::ResolveUnknownName);
        assert_eq!(d.severity, Severity::Error);
        let place = d.place.as_ref().expect("a place");
        assert_eq!(place.file, "buffer.game");
        assert_eq!(&text[place.start..place.end], name);
        assert_eq!(place.column, 11);
        assert_eq!(place.end_column, 11 + name.len());
        assert!(d.help.is_some(), "{d:?}");
        assert_eq!(d.labels[0].0, *place);
    }
    assert_eq!(found[0].place.as_ref().map(|p| p.line), Some(2));
    assert_eq!(found[1].place.as_ref().map(|p| p.line), Some(3));
    // As JSON: the code by name, the severity as a word.
    let json = serde_json::to_value(&found[0]).expect("serialises");
    assert_eq!(json["code"], "cgl::resolve::unknown_name");
    assert_eq!(json["severity"], "error");
    let back: Diagnostic = serde_json::from_value(json).expect("deserialises");
    assert_eq!(back, found[0]);
}

#[test]
fn a_syntax_error_is_data_too() {
    let mut s = Session::new(SessionConfig::default());
    let errors = s
        .load_source("b.game", "game G { position n move }\n")
        .unwrap_err();
    let d = &s.diagnostics(&errors)[0];
    assert!(d.code.name().starts_with("cgl::syntax::"), "{d:?}");
    let place = d.place.as_ref().expect("a place");
    assert_eq!(place.line, 1);
    assert!(place.start <= place.end && place.end <= 27, "{place:?}");
}

/// An independent reading of a value's text, to check [`Data`] against what cgl prints.
fn shown(d: &Data) -> String {
    let join = |xs: &[Data]| xs.iter().map(shown).collect::<Vec<_>>().join(", ");
    match d {
        Data::None => "none".into(),
        Data::Bool(b) => b.to_string(),
        Data::Int(n) => n.to_string(),
        Data::Rational {
            numerator,
            denominator,
        } => format!("{numerator}/{denominator}"),
        Data::Wide {
            numerator,
            denominator,
        } => format!("{numerator}/{denominator}"),
        Data::Str(s) => format!("{s:?}"),
        Data::Outcome(o) | Data::Mode(o) => o.clone(),
        Data::Tuple(xs) if xs.len() == 1 => format!("({},)", shown(&xs[0])),
        Data::Tuple(xs) => format!("({})", join(xs)),
        Data::List(xs) => format!("[{}]", join(xs)),
        Data::Set(xs) => format!("{{{}}}", join(xs)),
        Data::Range { start, end } => format!("{start}..{end}"),
        Data::Game(t) | Data::Position(t) | Data::Form(t) => t.clone(),
        Data::Split(xs) => format!("split({})", join(xs)),
        Data::Infinite(k) => format!(
            "inf({})",
            k.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

#[test]
fn values_are_data_that_print_as_cgl_prints_them() {
    let (mut s, file) = session_with(NIM);
    let cases: &[(&str, Data)] = &[
        ("grundy(Nim(3) + Nim(5))", Data::Int(6)),
        ("outcome(Nim(0))", Data::Outcome("P".into())),
        ("inf(1, 0)", Data::Infinite(vec![0, 1])),
        (
            "3/4",
            Data::Rational {
                numerator: 3,
                denominator: 4,
            },
        ),
        (
            "-6/8",
            Data::Rational {
                numerator: -3,
                denominator: 4,
            },
        ),
        (
            "(1/3) ** 41",
            Data::Wide {
                numerator: "1".into(),
                denominator: "36472996377170786403".into(),
            },
        ),
        ("none", Data::None),
        ("\"a\\\"b\"", Data::Str("a\"b".into())),
        (
            "[1, true]",
            Data::List(vec![Data::Int(1), Data::Bool(true)]),
        ),
        ("{3, 1}", Data::Set(vec![Data::Int(1), Data::Int(3)])),
        ("(1,)", Data::Tuple(vec![Data::Int(1)])),
        ("2..5", Data::Range { start: 2, end: 5 }),
        ("Nim(2) + Nim(1)", Data::Position("Nim(1) + Nim(2)".into())),
        ("Nim", Data::Game("Nim".into())),
        ("*", Data::Form("*".into())),
        ("{1 | -1}", Data::Form("+-1".into())),
    ];
    for (text, want) in cases {
        let v = s
            .eval_text(text, &[file])
            .unwrap_or_else(|d| panic!("{text}: {d:?}"));
        let got = s.data(&v);
        assert_eq!(&got, want, "{text}");
    }
    // Whatever the value, the data reads back as cgl prints it (strings aside, which
    // cgl prints with its own escapes).
    for text in [
        "moves(Nim(3) + Nim(1))",
        "[(grundy(Nim(k)), outcome(Nim(k)), k / 3) for k in 0..6]",
        "{(1, [2, {3}]), (0, [])}",
        "winning_moves(Nim(3) + Nim(5))",
        "[*, ^, {2 | -1/2}, 1/2]",
        "[-(2/3) ** 50, 2 ** 62 / 3 * 7]",
    ] {
        let v = s.eval_text(text, &[file]).expect(text);
        assert_eq!(shown(&s.data(&v)), s.show(&v), "{text}");
    }
    let json = serde_json::to_string(&Data::Rational {
        numerator: 1,
        denominator: 2,
    })
    .unwrap();
    assert_eq!(
        json,
        r#"{"kind":"rational","value":{"numerator":1,"denominator":2}}"#
    );
}

#[test]
fn a_value_nested_deep_becomes_data() {
    // Evaluating the nesting takes more stack than a test thread has.
    let depth = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let text = "fn nest(n) = if n == 0 then [] else [nest(n - 1)]\n";
            let (mut s, file) = session_with(text);
            let v = s.eval_text("nest(1900)", &[file]).expect("nests");
            let mut d = s.data(&v);
            let mut depth = 0;
            while let Data::List(mut xs) = d {
                match xs.pop() {
                    Some(x) => d = x,
                    None => break,
                }
                depth += 1;
            }
            depth
        })
        .expect("a thread")
        .join()
        .expect("no panic");
    assert_eq!(depth, 1900);
}

#[test]
fn equilibria_are_data_with_the_players_strategies() {
    let text = "game BoS {\n  player Alice in [\"Opera\", \"Football\"]\n  player Bob in [\"Opera\", \"Football\"]\n  table [[(2, 1), (0, 0)], [(0, 0), (1, 2)]]\n}\n";
    let (mut s, file) = session_with(text);
    let game = s.eval_text("BoS", &[file]).expect("a game");
    let span = Span::new(cgl::api::FileId(0), 0, 0);
    let found = s
        .equilibria(&game, span)
        .expect("strategic")
        .expect("solved");
    assert_eq!(found.players, ["Alice", "Bob"]);
    assert_eq!(found.labels[0], ["\"Opera\"", "\"Football\""]);
    assert_eq!(found.method, "support enumeration");
    assert!(found.complete);
    // The same equilibria as `nash` lists, in its order.
    let listed = s.eval_text("nash(BoS)[2]", &[file]).expect("nash");
    let Data::List(profiles) = s.data(&listed) else {
        panic!("a list")
    };
    assert_eq!(found.equilibria.len(), profiles.len());
    for (e, p) in found.equilibria.iter().zip(&profiles) {
        assert_eq!(
            Data::Tuple(e.strategies.iter().cloned().map(Data::List).collect()),
            *p
        );
    }
    let half = Data::Rational {
        numerator: 2,
        denominator: 3,
    };
    assert!(found.equilibria.iter().any(|e| e.strategies[0][0] == half));
    // A game of moves has no equilibria.
    let (mut s, file) = session_with(NIM);
    let nim = s.eval_text("Nim", &[file]).expect("a game");
    assert!(s.equilibria(&nim, span).is_none());
}

/// A game whose positions never run out: only a limit ends its analysis.
const ENDLESS: &str = "game Up { position n  move n + 1  move n + 2 }\n";

#[test]
fn a_budget_stops_one_call_and_the_session_goes_on() {
    let (mut s, file) = session_with(ENDLESS);
    let start = Instant::now();
    let budget = Budget::new().seconds(0.3);
    let err = s
        .within(&budget, |s| s.eval_text("outcome(Up(0))", &[file]))
        .unwrap_err();
    let took = start.elapsed();
    assert_eq!(err[0].code, Code::LimitTimeout, "{:?}", err[0].message);
    assert!(took < Duration::from_millis(1300), "took {took:?}");
    // The next call runs with the session's own limits again.
    let v = s.eval_text("1 + 1", &[file]).expect("runs");
    assert_eq!(s.data(&v), Data::Int(2));
}

#[test]
fn a_position_budget_holds_per_call() {
    let (mut s, file) = session_with(ENDLESS);
    let budget = Budget::new().positions(1000).seconds(10.0);
    let err = s
        .within(&budget, |s| s.eval_text("outcome(Up(0))", &[file]))
        .unwrap_err();
    assert_eq!(
        err[0].code,
        Code::GraphTooManyPositions,
        "{}",
        err[0].message
    );
    let budget = Budget::new().memory(8 << 20).seconds(10.0);
    let err = s
        .within(&budget, |s| s.eval_text("outcome(Up(0))", &[file]))
        .unwrap_err();
    assert_eq!(err[0].code, Code::GraphTooMuchMemory, "{}", err[0].message);
}

#[test]
fn another_thread_cancels_a_call() {
    let (mut s, file) = session_with(ENDLESS);
    let cancel = Cancel::new();
    let other = cancel.clone();
    let tripper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        other.cancel();
    });
    let start = Instant::now();
    let budget = Budget::new().cancel(&cancel);
    let err = s
        .within(&budget, |s| s.eval_text("outcome(Up(0))", &[file]))
        .unwrap_err();
    tripper.join().expect("the other thread");
    assert_eq!(err[0].code, Code::LimitInterrupted, "{}", err[0].message);
    assert!(start.elapsed() < Duration::from_secs(2));
    assert!(cancel.is_cancelled());
    // The session's own stop flag was not raised.
    assert!(s.stop().check().is_ok());
}

#[test]
fn definitions_and_the_names_at_places() {
    let text = "const K = 3\nfn twice(x) = x + x\ngame Take { position n  move n - k for k in 1..=K if k <= n }\nexpect grundy(Take(twice(2))) == 1\n";
    let (s, file) = session_with(text);
    let defs = s.definitions(file);
    let names: Vec<(&str, DefinitionKind, usize)> = defs
        .iter()
        .map(|d| (d.name.as_str(), d.kind, d.place.line))
        .collect();
    assert_eq!(
        names,
        [
            ("K", DefinitionKind::Constant, 1),
            ("twice", DefinitionKind::Function, 2),
            ("Take", DefinitionKind::Game, 3),
        ]
    );
    assert_eq!(defs[1].signature, "fn twice(x) = x + x");
    let at = |needle: &str, skip: usize| {
        let offset = text.match_indices(needle).nth(skip).expect(needle).0;
        s.name_at(file, offset + 1)
            .unwrap_or_else(|| panic!("nothing at {needle}"))
    };
    // A use of a global goes to its definition.
    let k = at("K", 1);
    assert_eq!((k.name.as_str(), k.kind), ("K", DefinitionKind::Constant));
    assert_eq!(
        k.definition.as_ref().map(|p| (p.line, p.column)),
        Some((1, 7))
    );
    assert_eq!(k.description, "const K = 3");
    let twice = at("twice", 1);
    assert_eq!(twice.definition.map(|p| p.line), Some(2));
    assert_eq!(at("Take(", 0).definition.map(|p| p.line), Some(3));
    // A variable goes to where it is bound.
    let x = at("x", 2);
    assert_eq!(x.kind, DefinitionKind::Variable);
    assert_eq!(x.definition.map(|p| (p.line, p.column)), Some((2, 10)));
    let k_var = at("k <=", 0);
    assert_eq!(k_var.definition.map(|p| (p.line, p.column)), Some((3, 40)));
    // A built-in is described by the language reference.
    let g = at("grundy", 0);
    assert_eq!(g.kind, DefinitionKind::Builtin);
    assert!(g.definition.is_none());
    assert!(
        g.description.contains("Sprague–Grundy"),
        "{}",
        g.description
    );
    // Nothing is at a keyword or a number.
    assert!(s.name_at(file, text.find("expect").unwrap() + 1).is_none());
    assert!(s.name_at(file, text.find("== 1").unwrap() + 3).is_none());
}

#[test]
fn a_name_imported_from_another_file_goes_to_that_file() {
    let dir = std::env::temp_dir().join(format!("cgl-api-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    std::fs::write(dir.join("nim.game"), NIM).expect("written");
    let main = "import \"nim.game\"\nexpect grundy(Nim(4)) == 4\n";
    std::fs::write(dir.join("main.game"), main).expect("written");
    let mut s = Session::new(SessionConfig::default());
    let file = s.load_path(&dir.join("main.game")).expect("loads");
    let at = s.name_at(file, main.find("Nim").unwrap()).expect("a name");
    let place = at.definition.expect("defined");
    assert!(place.file.ends_with("nim.game"), "{place:?}");
    assert_eq!((place.line, place.column), (1, 6));
    std::fs::remove_dir_all(&dir).ok();
}
