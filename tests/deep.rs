//! Deeply nested positions and values (issue 15): a position one level deeper than the one
//! before it, each move, costs constant time to intern (hashing remembers the digests of
//! shared nodes), and every walk of a value — dropping, cloning, equality, order, hashing,
//! the heap estimate, printing, the instances of a term — uses no native stack per level,
//! also where the nesting passes through positions held in values and through compounds.

use std::time::{Duration, Instant};

use cgl::syntax::ast::Convention;
use cgl::value::{
    display_short, CompoundKind, Instance, InstanceId, InstanceNames, PosTerm, Value,
};

use crate::common::{assert_no_crash, cgl_in, temp_dir};

/// Three games whose positions nest one level deeper each move: in a list (`G`), through a
/// position held in a list (`H`), and through compounds of alternating kinds (`K`).
const DEEP_GAMES: &str = "\
game G { position (n, xs)  move (n - 1, [xs]) if n > 0 }
game H { position (n, x)  move (n - 1, [H(0, x)]) if n > 0 }
game K { position (n, x)  move (n - 1, (x & G(1, [])) + G(2, [])) if n > 0 }
fn last(xs) = xs[len(xs) - 1]
";

/// Interning a position costs time independent of its depth: 100,000 moves, each one level
/// deeper, take about a second (hashing each position whole made `G` quadratic: 97 s for
/// 40,000 moves, so this would take ten minutes). The margin is wide for a loaded machine.
#[test]
fn positions_nested_one_level_deeper_each_move_are_interned_in_linear_time() {
    let dir = temp_dir("deep-linear");
    std::fs::write(
        dir.join("deep.game"),
        format!(
            "{DEEP_GAMES}expect G(100000, []) is P\nexpect H(60000, none) is P\n\
             expect K(60000, G(0, [])) is P\n"
        ),
    )
    .unwrap();
    let started = Instant::now();
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "--timeout", "90", "deep.game"]);
    assert_no_crash("check deep.game", &stderr);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("3 passed"), "{stdout}");
    assert!(
        started.elapsed() < Duration::from_secs(90),
        "{:?}",
        started.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the command line prints of a deep value — `eval`, `str`, `sorted`, a failed
/// expectation in JSON, `eval --show`, `cgl dot` — is cut short, in time bounded by what it
/// prints, and never overflows the stack.
#[test]
fn deep_values_print_short_everywhere() {
    let dir = temp_dir("deep-print");
    std::fs::write(
        dir.join("deep.game"),
        format!("{DEEP_GAMES}expect last(line(H(20000, none))) == 0\n"),
    )
    .unwrap();
    for expr in [
        "last(line(G(200000, [])))",
        "last(line(H(50000, none)))",
        "last(line(K(50000, G(0, []))))",
        "sorted([last(line(H(20000, none))), last(line(H(20001, none)))])",
        "len(str(last(line(K(20000, G(0, []))))))",
        "{last(line(H(20000, none))), last(line(G(20000, [])))}",
    ] {
        let (code, stdout, stderr) = cgl_in(&dir, &["eval", "--file", "deep.game", expr]);
        assert_no_crash(expr, &stderr);
        assert_eq!(code, 0, "{expr}: {stderr}");
        assert!(stdout.len() < (1 << 20) + 8192, "{expr}: {}", stdout.len());
    }
    let (code, stdout, stderr) = cgl_in(
        &dir,
        &[
            "eval",
            "--show",
            "--file",
            "deep.game",
            "last(line(H(20000, none)))",
        ],
    );
    assert_no_crash("eval --show", &stderr);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("H(0, [H(0, "), "{}", stdout.len());
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "--format", "json", "deep.game"]);
    assert_no_crash("check --format json", &stderr);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("whole JSON");
    assert!(stdout.len() < 64 << 10, "{}", stdout.len());
    assert!(doc.to_string().contains('…'), "{stdout}");
    let (code, stdout, stderr) = cgl_in(
        &dir,
        &["dot", "-f", "deep.game", "last(line(H(20000, none)))"],
    );
    assert_no_crash("dot", &stderr);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("digraph") && stdout.len() < 64 << 10,
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The handle of a test instance `id` (a game of its own, with no parameters).
fn inst(id: u32) -> Instance {
    Instance::new(InstanceId(id), id, std::rc::Rc::from(Vec::new()))
}

struct Names;
impl InstanceNames for Names {
    fn instance_label(&self, _: InstanceId) -> &str {
        "H"
    }
    fn instance_convention(&self, _: InstanceId) -> Convention {
        Convention::Normal
    }
}

/// A value nested `n` deep through positions held in lists: `H([H([... leaf ...])])`, with
/// a list, a tuple or a set between positions, and compounds of alternating kinds.
fn through_positions(n: usize, leaf: i64) -> Value {
    let mut v = Value::Int(leaf);
    for i in 0..n {
        let inner = match i % 4 {
            0 => Value::list(vec![v]),
            1 => Value::tuple(vec![Value::Int(1), v]),
            2 => Value::Set(std::rc::Rc::new([v].into_iter().collect())),
            _ => v,
        };
        let atom = PosTerm::Atom(inst(i as u32 % 3), inner);
        let term = if i % 5 == 4 {
            atom
        } else {
            // An atom beside the nested one, in compounds of alternating kinds.
            let kind = [CompoundKind::Disjunctive, CompoundKind::Conjunctive][i % 2];
            let beside = PosTerm::Atom(inst(7), Value::Int(i as i64));
            PosTerm::compound(kind, [atom, beside])
        };
        v = Value::pos(term, Convention::Normal);
    }
    v
}

/// A compound nested `n` deep by itself, alternating its kinds.
fn deep_compound(n: usize) -> PosTerm {
    let mut t = PosTerm::Atom(inst(0), Value::Int(0));
    for i in 0..n {
        let kind = [CompoundKind::Disjunctive, CompoundKind::Selective][i % 2];
        t = PosTerm::compound(kind, [t, PosTerm::Atom(inst(1), Value::Int(1))]);
    }
    t
}

fn hash(v: &impl std::hash::Hash) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// On a thread with a 256 KiB stack, values nested 300,000 deep through positions (and a
/// compound nested as deep) are built, compared, ordered, hashed, measured, printed and
/// dropped. Before, dropping them recursed once per position, and equality, order and
/// hashing of compounds recursed unguarded.
#[test]
fn values_nested_through_positions_drop_and_walk_on_a_small_stack() {
    let worker = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(|| {
            let n = 300_000;
            let a = through_positions(n, 0);
            let b = through_positions(n, 0);
            let c = through_positions(n, 1);
            assert!(a == b);
            assert!(a != c);
            assert!(a < c && c > b);
            assert_eq!(hash(&a), hash(&b));
            assert!(a.heap_bytes() > n * 40, "{}", a.heap_bytes());
            let shown = display_short(&a, &Names);
            assert!(shown.len() < 4096 + 1024 + 16 && shown.contains('…'));
            let copy = a.clone();
            drop(a);
            assert_eq!(hash(&copy), hash(&b));
            drop((b, c, copy));
            let (s, t) = (deep_compound(n), deep_compound(n));
            assert!(s == t && s.cmp(&t).is_eq());
            assert_eq!(hash(&s), hash(&t));
            let mut instances = Vec::new();
            s.instances(&mut instances);
            assert_eq!(instances.len(), n + 1);
            let v = Value::pos(s, Convention::Normal);
            assert!(display_short(&v, &Names).contains('…'));
            drop((v, t));
        })
        .unwrap();
    worker.join().expect("no stack overflow, no panic");
}

/// The digests remembered for shared nodes are let go once nothing else holds the nodes:
/// hashing many deep values one after another keeps the table bounded by what is alive, and
/// `forget_digests` (a graph's drop) lets go of all that is dead.
#[test]
fn remembered_digests_are_let_go_with_their_values() {
    let worker = std::thread::spawn(|| {
        let chain = |n: usize| {
            // Each node shared by two holders, so its digest is remembered.
            let mut v = Value::list(vec![]);
            let mut keep = Vec::new();
            for _ in 0..n {
                keep.push(v.clone());
                v = Value::list(vec![v]);
            }
            (v, keep)
        };
        let start = cgl::value::remembered_digests();
        for _ in 0..50 {
            let (v, keep) = chain(10_000);
            let _ = hash(&v);
            drop((v, keep));
        }
        let left = cgl::value::remembered_digests() - start;
        // At most the values of one round, and the table's slack (it sweeps when it doubles).
        assert!(left <= 3 * 10_000, "{left} digests remembered");
        // What a graph does when it is dropped: nothing is left of values no longer held.
        cgl::value::forget_digests();
        assert_eq!(cgl::value::remembered_digests(), start);
    });
    worker.join().expect("no panic");
}
