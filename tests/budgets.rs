//! Every long computation stops at `--timeout` (and Ctrl-C) and stays within `--max-memory`:
//! the canonical-form engine (`cgt`), the strategic-form solvers, `cgl plot` and `cgl dot`.
//! Each case would run for minutes or hours without its stop; the margins are generous, since
//! the tests share two cores with other work: the point is that the run ends as a timeout, not
//! that it ends within milliseconds.

use std::time::{Duration, Instant};

use crate::common::{assert_no_crash, cgl_in, temp_dir};

/// The longest a run stopped at `--timeout 1` may take under load.
const MARGIN: Duration = Duration::from_secs(30);

/// Runs cgl in `dir`; asserts it ends as a timeout (exit 1, `cgl::limit::timeout`) within
/// [`MARGIN`].
fn assert_times_out(dir: &std::path::Path, args: &[&str]) -> String {
    let started = Instant::now();
    let (code, stdout, stderr) = cgl_in(dir, args);
    let took = started.elapsed();
    assert_no_crash(&format!("{args:?}"), &stderr);
    assert_eq!(code, 1, "{args:?}: {stdout}{stderr}");
    assert!(
        stderr.contains("cgl::limit::timeout"),
        "{args:?}: {stdout}{stderr}"
    );
    assert!(
        !stderr.contains("did not stop at its deadline"),
        "{args:?} ran past its deadline: {stderr}"
    );
    assert!(took < MARGIN, "{args:?} took {took:?}");
    stderr
}

/// `{k | {0 | -k}}` for k = 1..16, summed: the canonical form of the sum takes minutes (each
/// more term doubles the time), all of it inside the value table. The sum, and each
/// built-in on a value that recurses through it, stop at the deadline.
#[test]
fn values_stop_at_the_deadline() {
    let dir = temp_dir("cgt-deadline");
    let big = "sum([{k | {0 | -k}} for k in 1..24])";
    for expr in [
        big.to_string(),
        format!("temperature({big} + {{1/2 | -1/2}})"),
        format!("len(str({big}))"),
    ] {
        assert_times_out(&dir, &["eval", "--timeout", "1", &expr]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same sum as positions of a partizan game: the graph is tiny, the value's sum is not.
/// Before the value table watched the deadline, `check` gave up on the file (exit 2).
#[test]
fn partizan_values_of_positions_stop_at_the_deadline() {
    let dir = temp_dir("cgt-positions");
    let terms: Vec<String> = (1..=24).map(|k| format!("Hot({k}, 0)")).collect();
    let file = format!(
        "// (k, 0) is {{k | {{0 | -k}}}}, (k, 1) is {{0 | -k}}, (k, 2) the integer k, (k, 3) -k.
game Hot {{
    position (k, s)
    left move (k, 2) if s == 0
    right move (k, 1) if s == 0
    left move (0, 2) if s == 1
    right move (k, 3) if s == 1
    left move (k - 1, 2) if s == 2 and k > 0
    right move (k - 1, 3) if s == 3 and k > 0
}}
expect value(Hot(2, 0)) == {{2 | {{0 | -2}}}}
expect value({}) == 0
expect outcome({}) == N
",
        terms.join(" + "),
        terms.join(" + ")
    );
    std::fs::write(dir.join("hot.game"), file).unwrap();
    let stderr = assert_times_out(&dir, &["check", "--timeout", "1", "hot.game"]);
    assert!(stderr.contains("while analysing"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The value table counts its memory against `--max-memory`, with the graph's diagnostic.
#[test]
fn the_value_table_is_bounded_in_memory() {
    let dir = temp_dir("cgt-memory");
    let (code, stdout, stderr) = cgl_in(
        &dir,
        &[
            "eval",
            "--max-memory",
            "30",
            "sum([{k | {0 | -k}} for k in 1..24])",
        ],
    );
    assert_no_crash("memory", &stderr);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("cgl::graph::too_much_memory")
            && stderr.contains("table of game values would take more than the 30 MiB"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A value nested a million deep (a position grown one list deeper by each move reaches
/// that): dropping, cloning, comparing, ordering, hashing, measuring and printing it use no
/// native stack per level, on a thread whose stack is 1 MiB.
#[test]
fn deeply_nested_values_do_not_overflow_the_stack() {
    use cgl::value::{display_short, Value};
    let worker = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let deep = |n: usize, leaf: i64| {
                let mut v = Value::list(vec![Value::Int(leaf)]);
                for i in 0..n {
                    v = if i % 3 == 0 {
                        Value::tuple(vec![v, Value::Int(1)])
                    } else {
                        Value::list(vec![v])
                    };
                }
                v
            };
            let n = 1_000_000;
            let a = deep(n, 0);
            let b = deep(n, 0);
            let c = deep(n, 1);
            assert!(a == b);
            assert!(a != c);
            assert!(a < c);
            let hash = |v: &Value| {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                v.hash(&mut h);
                h.finish()
            };
            assert_eq!(hash(&a), hash(&b));
            assert!(a.heap_bytes() > n * 16);
            struct NoNames;
            impl cgl::value::InstanceNames for NoNames {
                fn instance_label(&self, _: cgl::value::InstanceId) -> &str {
                    "G"
                }
                fn instance_convention(
                    &self,
                    _: cgl::value::InstanceId,
                ) -> cgl::syntax::ast::Convention {
                    cgl::syntax::ast::Convention::Normal
                }
            }
            let shown = display_short(&a, &NoNames);
            assert!(shown.len() < 4096 + 1024 + 16, "{}", shown.len());
            assert!(shown.contains('…'));
            let copy = a.clone();
            drop(a);
            drop(b);
            drop(c);
            assert_eq!(hash(&copy), hash(&deep(n, 0)));
        })
        .unwrap();
    worker.join().expect("no stack overflow, no panic");
}

/// Positions that share their parts (each move wraps the last list in a new one) are counted
/// once in the memory estimate, not once per position that holds them (which made 17,583
/// such positions claim 5,901 MiB), and a position quoted in a diagnostic's note is cut
/// short however deep it nests.
#[test]
fn shared_positions_cost_their_memory_and_print_short() {
    let dir = temp_dir("deep-positions");
    std::fs::write(
        dir.join("deep.game"),
        "game G { position (n, xs)  move (n - 1, [xs]) if n > 0 }\nexpect G(3000, []) is P\n",
    )
    .unwrap();
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "--stats", "deep.game"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    // About 350 bytes a position counted (246 measured); counting every position's whole
    // list made it 3,000 * 1,500 * 40 bytes, 180 MB.
    let counted = stdout
        .lines()
        .chain(stderr.lines())
        .find_map(|l| l.split("--max-memory counts ").nth(1))
        .unwrap_or_else(|| panic!("no memory line: {stdout}{stderr}"));
    assert!(
        counted.ends_with("KiB") || counted.starts_with("1.") || counted.starts_with("2."),
        "{counted}"
    );
    std::fs::write(
        dir.join("deep.game"),
        "game G { position (n, xs)  move (n - 1, [xs]) if n > 0 }\nexpect G(8000, []) is P\n",
    )
    .unwrap();
    let (code, _, stderr) = cgl_in(&dir, &["check", "--max-memory", "1", "deep.game"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("cgl::graph::too_much_memory"), "{stderr}");
    assert!(
        stderr.contains('…') && stderr.len() < 8_000,
        "{}",
        stderr.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The box table of an integer or pair game and the dense table of a list game share one
/// allowance (an eighth of `--max-memory`): each fits in 1 MiB's share alone (100 KiB and
/// 77 KiB of the 128 KiB), not both, so the game decided second is found the ordinary way;
/// with 2 MiB both get their tables, and `--stats` and the estimate count both in full.
#[test]
fn box_tables_and_list_tables_share_one_allowance() {
    let dir = temp_dir("dense-share");
    std::fs::write(
        dir.join("share.game"),
        "// The box of Rook(159, 159) is 160 x 160 pairs, 102,400 bytes of ids; the cells of
// Cells stay in {0, 1, 2}, 3^9 boards, 78,732 bytes.
game Rook {
    position (a, b)
    move (0, b) if a > 0
    move (a, 0) if b > 0
}
game Cells {
    position b
    move set(b, i, 0) for i in 0..9 if b[i] > 0
}
expect outcome(Rook(159, 159)) == P
expect outcome(Cells([1, 2, 0, 0, 0, 0, 0, 0, 0])) == P
",
    )
    .unwrap();
    let stats = |mib: &str| {
        let args = [
            "check",
            "--stats",
            "--format",
            "json",
            "--max-memory",
            mib,
            "share.game",
        ];
        let (code, stdout, stderr) = cgl_in(&dir, &args);
        assert_eq!(code, 0, "{stdout}{stderr}");
        let doc: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
        doc["records"][0]["stats"].clone()
    };
    let game = |stats: &serde_json::Value, name: &str, key: &str| {
        stats["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .and_then(|g| g[key].as_u64())
            .unwrap_or_else(|| panic!("{name} {key}: {stats}"))
    };
    let boxed = 160 * 160 * 4;
    let small = stats("1");
    assert!(game(&small, "Rook", "bytes") >= boxed, "{small}");
    assert_eq!(game(&small, "Cells", "indexed_dense"), 0, "{small}");
    assert_eq!(game(&small, "Cells", "indexed_packed"), 4, "{small}");
    let large = stats("2");
    assert!(game(&large, "Rook", "bytes") >= boxed, "{large}");
    assert_eq!(game(&large, "Cells", "indexed_dense"), 4, "{large}");
    // The list table is reserved whole in the allowance but holds 4 ids, kept in a map until
    // it holds many (graph::dense): --stats and the estimate count what it takes; the box
    // table is counted whole.
    for key in ["memory_bytes", "memory_estimate_bytes"] {
        assert!(large[key].as_u64().unwrap() >= boxed, "{large}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Strategic games' payoff tables count against `--max-memory` together: one 150 × 150
/// table (720 KiB) fits in 1 MiB, a second instance's does not, and the diagnostic says so;
/// with 2 MiB both are built.
#[test]
fn payoff_tables_count_against_the_memory_limit() {
    let dir = temp_dir("strategic-memory");
    std::fs::write(
        dir.join("g.game"),
        "game G(k = 0) {\n    player Row in 0..150\n    player Col in 0..150\n    \
         payoff (Row * k - Col, Col - Row)\n}\n",
    )
    .unwrap();
    let run =
        |mib: &str, expr: &str| cgl_in(&dir, &["eval", "--max-memory", mib, "-f", "g.game", expr]);
    let (code, stdout, stderr) = run("1", "len(pure_nash(G[k = 1]))");
    assert_eq!((code, stdout.trim()), (0, "1"), "{stderr}");
    let both = "[len(pure_nash(G[k = i])) for i in 0..2]";
    let (code, stdout, stderr) = run("1", both);
    assert_no_crash("payoff tables", &stderr);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("cgl::graph::too_much_memory")
            && stderr.contains("payoff tables of strategic games would take more than 1 MiB")
            && stderr.contains("KiB of tables built before")
            && stderr.contains("this game's payoff table"),
        "{stderr}"
    );
    let (code, stdout, stderr) = run("2", both);
    assert_eq!((code, stdout.trim()), (0, "[150, 1]"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
