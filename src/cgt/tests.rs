//! Unit tests of the notation and the analyses against values published by CGSuite (its own
//! test suite's strings) and Winning Ways / Siegel.

use super::*;

fn d(n: i64, den: i64) -> Dyadic {
    Dyadic::from_fraction(n, den).unwrap()
}

/// Parses `input` and prints it back, as CGSuite's test cases do.
fn reads_as(t: &mut ValueTable, input: &str, printed: &str) {
    let g = t.parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    assert_eq!(t.show(g), printed, "{input}");
    let again = t
        .parse(printed)
        .unwrap_or_else(|e| panic!("{printed}: {e}"));
    assert_eq!(again, g, "{printed} does not read back");
}

#[test]
fn cgsuite_notation() {
    let mut t = ValueTable::new();
    for (input, printed) in [
        ("0", "0"),
        ("5", "5"),
        ("-1/2", "-1/2"),
        ("25/16", "25/16"),
        ("*8", "*8"),
        ("9/8+*", "9/8*"),
        ("^", "^"),
        ("v*", "v*"),
        ("6+^*", "6^*"),
        ("^*6", "^*6"),
        ("73/16+v9*8", "73/16v9*8"),
        ("^+^", "^^"),
        ("{0||0|vvv}", "{0||0|v3}"),
        ("{^^^|vv}", "{^3|vv}"),
        ("{0||0|-3/2}", "Tiny(3/2)"),
        ("{0|||0||-1|-3}", "Tiny({3|1})"),
        ("{5||3|1|||0||||0}", "Miny({5||3|1})"),
        ("{1|^^||^}", "{1|^^||^}"),
        ("{1|^^^||^}", "{1|^3||^}"),
        ("{3||2+*|1+*}", "{3||2*|1*}"),
        (
            "{3/2+*|1/2||{0|-3},{-1+*,{-1/2|-1+*}|-5/2}}",
            "{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}",
        ),
        ("+-1", "+-1"),
        ("+-(1/2)", "+-1/2"),
        ("+-{1,1+*}", "+-{1,1*}"),
        ("3+-1", "{4|2}"),
        ("+-1+-2+-3+-4", "+-{10|8||6|4|||4|2||0|-2}"),
        ("3 - 2 +- 6 - 7 +- 8 + 4", "{12|0||-4|-16}"),
        ("{0|0}", "*"),
        ("{0,*|0,*}", "*2"),
        ("{0|*}", "^"),
        ("{0,*|0}", "^*"),
        ("{|}", "0"),
        ("{0|}", "1"),
        ("{|0}", "-1"),
        ("{0|1}", "1/2"),
        ("{1|0}", "{1|0}"),
        ("{2|0}", "{2|0}"),
        ("{2||2|0}", "2Tiny(2)"),
        ("2+Tiny(2)", "2Tiny(2)"),
        ("{2|0||0}", "Miny(2)"),
        ("+-(1+*)", "+-(1*)"),
        ("{4|0,+-1}", "{4|0,+-1}"),
        ("+-{3|2}", "+-{3|2}"),
        (
            "+-{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}",
            "+-{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}",
        ),
        ("±1", "+-1"),
        ("-1/2+^", "-1/2^"),
        ("-(1/2+^)", "-1/2v"),
        ("-1+{1|0||0}", "-1Miny(1)"),
        ("-2 - 1", "-3"),
        ("--1", "1"),
        ("↑ + ⇑", "^3"),
    ] {
        reads_as(&mut t, input, printed);
    }
    let g = t.parse("+-1 + ^^*").unwrap();
    assert_eq!(t.show_with(g, Style::Unicode), "{1⇑*|-1⇑*}");
}

#[test]
fn notation_errors() {
    let mut t = ValueTable::new();
    for (bad, at) in [
        ("", 0),
        ("{0|1|2}", 4),
        ("1/3", 2),
        ("{0,|1}", 2),
        ("{0 1|2}", 3),
        ("foo", 0),
        ("(1", 2),
        ("{0|1", 4),
        ("99999999999999999999", 0),
        ("{0,1}", 0),
        ("1 2", 2),
        ("#", 0),
    ] {
        let e = t.parse(bad).expect_err(bad);
        assert_eq!(e.offset, at, "{bad}: {e}");
    }
    let deep = "(".repeat(5000) + "0" + &")".repeat(5000);
    assert!(t.parse(&deep).is_err());
    let deep = "{".repeat(5000) + "|" + &"}".repeat(5000);
    assert!(t.parse(&deep).is_err());
    let deep = "-".repeat(5000) + "1";
    assert!(t.parse(&deep).is_err());
}

#[test]
fn identities() {
    let mut t = ValueTable::new();
    let mut eq = |a: &str, b: &str| {
        let (x, y) = (t.parse(a).unwrap(), t.parse(b).unwrap());
        assert_eq!(x, y, "{a} = {b}");
    };
    eq("* + *", "0");
    eq("^ + v", "0");
    eq("{0|^}", "^ + ^ + *");
    eq("*2 + *3", "*");
    eq("{1|-1} + {1|-1}", "0");
    eq("1/2 + 1/2", "1");
    eq("{0|1/2} + {0|1/2}", "1/2");
    eq("^ + *", "{0,*|0}");
    eq("{0||0|-2} + {2|0||0}", "0");
    eq("{1|0} + {1|0}", "1");
}

#[test]
fn order() {
    let mut t = ValueTable::new();
    let mut p = |s: &str| t.parse(s).unwrap();
    let (up, star, z, dup, tiny, s2) = (p("^"), p("*"), p("0"), p("^^"), p("Tiny(2)"), p("*2"));
    let half = p("1/2");
    assert!(t.gt(up, z).unwrap());
    assert!(t.confused(up, star).unwrap());
    assert!(t.gt(dup, star).unwrap());
    assert!(t.gt(tiny, z).unwrap());
    assert!(t.lt(tiny, up).unwrap());
    assert!(t.lt(tiny, half).unwrap());
    assert!(t.confused(star, z).unwrap());
    assert!(t.gt(up, s2).unwrap());
    assert_eq!(t.compare(half, up).unwrap(), Relation::Greater);
    assert_eq!(t.compare(z, z).unwrap(), Relation::Equal);
    assert_eq!(t.outcome(up).unwrap(), Outcome::L);
    assert_eq!(t.outcome(star).unwrap(), Outcome::N);
    let sw = t.parse("{1|-1}").unwrap();
    assert_eq!(t.outcome(sw).unwrap(), Outcome::N);
}

#[test]
fn stops_mean_temperature() {
    let mut t = ValueTable::new();
    let g = t.parse("{2|-1/2}").unwrap();
    assert_eq!(t.stops(g).unwrap(), (Dyadic::int(2), d(-1, 2)));
    assert_eq!(t.mean(g).unwrap(), d(3, 4));
    assert_eq!(t.temperature(g).unwrap(), d(5, 4));
    for (s, temp, mean) in [
        ("0", d(-1, 1), d(0, 1)),
        ("5", d(-1, 1), d(5, 1)),
        ("1/2", d(-1, 2), d(1, 2)),
        ("-3/4", d(-1, 4), d(-3, 4)),
        ("*", d(0, 1), d(0, 1)),
        ("^*", d(0, 1), d(0, 1)),
        ("3/2^", d(0, 1), d(3, 2)),
        ("{1|-1}", d(1, 1), d(0, 1)),
        ("{4|2}", d(1, 1), d(3, 1)),
        ("{3||2|1}", d(3, 4), d(9, 4)),
        ("{2||1|0}", d(3, 4), d(5, 4)),
        ("Tiny(2)", d(0, 1), d(0, 1)),
        ("{2|0} + {1|0}", d(1, 1), d(3, 2)),
    ] {
        let g = t.parse(s).unwrap();
        assert_eq!(t.temperature(g).unwrap(), temp, "temperature of {s}");
        assert_eq!(t.mean(g).unwrap(), mean, "mean of {s}");
        let th = t.thermograph(g).unwrap();
        if !t.is_number(g) {
            assert_eq!(th.temperature, temp, "thermograph of {s}");
        }
        assert_eq!(th.mast, mean, "mast of {s}");
    }
    // {3||2|1}: the left wall is 3 - t up to 1/2; the right wall is the inner switch's
    // left wall (2 - t until 1/2, then 3/2) plus t: 2 up to 1/2.
    let g = t.parse("{3||2|1}").unwrap();
    let th = t.thermograph(g).unwrap();
    assert_eq!(th.left.value_at(Dyadic::ZERO).unwrap(), Dyadic::int(3));
    assert_eq!(th.right.value_at(Dyadic::ZERO).unwrap(), Dyadic::int(2));
    assert_eq!(th.right.value_at(d(1, 4)).unwrap(), Dyadic::int(2));
    assert_eq!(th.left.value_at(d(1, 4)).unwrap(), d(11, 4));
    // The number 1/2 = {0|1}: walls -t and 1 + t up to -1/2.
    let h = t.parse("1/2").unwrap();
    let th = t.thermograph(h).unwrap();
    assert_eq!(th.left.value_at(Dyadic::MINUS_ONE).unwrap(), Dyadic::ONE);
    assert_eq!(th.right.value_at(Dyadic::MINUS_ONE).unwrap(), Dyadic::ZERO);
    assert_eq!(th.left.value_at(Dyadic::ZERO).unwrap(), d(1, 2));
    let (us, half) = (t.parse("^*").unwrap(), t.parse("1/2").unwrap());
    assert!(t.is_infinitesimal(us).unwrap());
    assert!(!t.is_infinitesimal(half).unwrap());
    let tiny = t.parse("Tiny(2)").unwrap();
    assert!(t.is_infinitesimal(tiny).unwrap());
}

#[test]
fn cool_and_heat() {
    let mut t = ValueTable::new();
    let case = |t: &mut ValueTable, g: &str, by: Dyadic, want: &str| {
        let x = t.parse(g).unwrap();
        let c = t.cool(x, by).unwrap();
        assert_eq!(t.show(c), want, "{g} cooled by {by}");
    };
    case(&mut t, "{1|-1}", Dyadic::ONE, "*");
    case(&mut t, "{1|-1}", d(1, 2), "+-1/2");
    case(&mut t, "{1|-1}", Dyadic::int(2), "0");
    case(&mut t, "{2|-1/2}", d(5, 4), "3/4*");
    case(&mut t, "{2|-1/2}", d(1, 2), "{3/2|0}");
    case(&mut t, "1/2", Dyadic::ZERO, "1/2");
    case(&mut t, "3", Dyadic::int(5), "3");
    case(&mut t, "{3||2|1}", d(1, 2), "{5/2|2*}");
    for (g, by, want) in [
        ("*", "2", "+-2"),
        ("*2", "2", "+-{2,{4|0}}"),
        ("^^", "2", "{2||0,+-2|-4}"),
    ] {
        let (x, y) = (t.parse(g).unwrap(), t.parse(by).unwrap());
        let h = t.heat(x, y).unwrap();
        assert_eq!(t.show(h), want, "{g} heated by {by}");
    }
    // Heating by t undoes cooling by t for these hot games.
    for g in ["{1|-1}", "{2|-1/2}", "{4|2}"] {
        let x = t.parse(g).unwrap();
        let one = t.integer(1).unwrap();
        let h = t.heat(x, one).unwrap();
        assert_eq!(t.cool(h, Dyadic::ONE).unwrap(), x, "{g}");
    }
}

#[test]
fn birthdays() {
    let mut t = ValueTable::new();
    for (g, b) in [
        ("0", 0),
        ("1", 1),
        ("-3", 3),
        ("1/2", 2),
        ("3/4", 3),
        ("-5/4", 4),
        ("*", 1),
        ("^", 2),
        ("*2", 2),
        ("^*", 2),
        ("{2|-1/2}", 3),
        ("Tiny(2)", 4),
    ] {
        let x = t.parse(g).unwrap();
        assert_eq!(t.birthday(x).unwrap(), b, "{g}");
    }
    // The number formula against the options.
    for num in -40..=40 {
        for exp in 0..4 {
            let x = Dyadic::new(num, exp).unwrap();
            let g = t.number(x).unwrap();
            let mut b = 0;
            for side in [Side::Left, Side::Right] {
                for o in t.options(g, side).unwrap() {
                    b = b.max(t.birthday(o).unwrap() + 1);
                }
            }
            assert_eq!(t.birthday(g).unwrap(), b, "{x}");
        }
    }
}

#[test]
fn atomic_weights() {
    let mut t = ValueTable::new();
    for (g, w) in [
        ("0", "0"),
        ("*", "0"),
        ("^", "1"),
        ("^^*", "2"),
        ("v3*5", "-3"),
        ("{0|^*}", "2"),
        ("{0||0|*}", "2"),
    ] {
        let x = t.parse(g).unwrap();
        let want = t.parse(w).unwrap();
        assert_eq!(t.atomic_weight(x).unwrap(), want, "aw({g})");
    }
    let x = t.parse("1/2").unwrap();
    assert_eq!(t.atomic_weight(x), Err(CgtError::NotAllSmall));
    let x = t.parse("Tiny(2)").unwrap();
    assert_eq!(t.atomic_weight(x), Err(CgtError::NotAllSmall));
}

#[test]
fn reduced_forms() {
    let mut t = ValueTable::new();
    for (g, r) in [
        ("^", "0"),
        ("3/2^*", "3/2"),
        ("{1|0}", "{1|0}"),
        ("{1*|0}", "{1|0}"),
        ("{1|^}", "{1|0}"),
        ("{2||1|0}+*", "{2||1|0}"),
        ("Tiny(2)", "0"),
    ] {
        let x = t.parse(g).unwrap();
        let want = t.parse(r).unwrap();
        assert_eq!(t.reduced(x).unwrap(), want, "rcf({g}): {}", {
            let r = t.reduced(x).unwrap();
            t.show(r)
        });
    }
}

/// A sum whose canonical form takes minutes: `{k | {0 | -k}}` for k = 1..n.
fn hot_sum(t: &mut ValueTable, n: i64) -> Result<GameId, CgtError> {
    let z = t.zero();
    let mut sum = z;
    for k in 1..=n {
        let (pk, mk) = (t.integer(k)?, t.integer(-k)?);
        let inner = t.game(&[z], &[mk])?;
        let g = t.game(&[pk], &[inner])?;
        sum = t.add(sum, g)?;
    }
    Ok(sum)
}

#[test]
fn a_spent_budget_stops_every_recursion() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    let mut t = ValueTable::new();
    let past = Budget::unlimited().deadline(Instant::now(), Duration::from_millis(7));
    let started = Instant::now();
    let r = t.with_budget(past, |t| hot_sum(t, 30));
    assert_eq!(r, Err(CgtError::Timeout(Duration::from_millis(7))));
    assert!(started.elapsed() < Duration::from_secs(20));
    let raised = Budget::unlimited().flag(Arc::new(AtomicBool::new(true)));
    assert_eq!(
        t.with_budget(raised, |t| hot_sum(t, 30)),
        Err(CgtError::Interrupted)
    );
    // Outside the budget the table goes on, and what it kept is right.
    let g = hot_sum(&mut t, 4).unwrap();
    let mut fresh = ValueTable::new();
    let h = hot_sum(&mut fresh, 4).unwrap();
    assert_eq!(t.show(g), fresh.show(h));
    assert_eq!(t.temperature(g), fresh.temperature(h));
    let mut small = ValueTable::new();
    small.set_max_bytes(1 << 16);
    assert_eq!(hot_sum(&mut small, 30), Err(CgtError::Memory(1 << 16)));
    assert!(small.estimated_bytes() < 1 << 20);
}

/// The form order's brute force: a key per form, compared by the derived order (the
/// variants in the order of the classes, option lists sorted and compared as `Vec`s),
/// recomputed from the options at every level with no memo.
#[derive(PartialEq, Eq, PartialOrd, Ord, Debug)]
enum FormKey {
    Number(Dyadic),
    Nimber(u32),
    Nus(Dyadic, i32, u32),
    Other(Vec<FormKey>, Vec<FormKey>),
}

fn form_key(t: &mut ValueTable, g: GameId) -> FormKey {
    match t.as_nus(g) {
        Some(v) if v.ups == 0 && v.nim == 0 => FormKey::Number(v.number),
        Some(v) if v.ups == 0 && v.number.is_zero() => FormKey::Nimber(v.nim),
        Some(v) => FormKey::Nus(v.number, v.ups, v.nim),
        None => {
            let mut side = |s: Side| {
                let mut keys: Vec<FormKey> = t
                    .options(g, s)
                    .unwrap()
                    .into_iter()
                    .map(|o| form_key(t, o))
                    .collect();
                keys.sort();
                keys
            };
            let left = side(Side::Left);
            FormKey::Other(left, side(Side::Right))
        }
    }
}

/// The games born by day 2 and a sample of day 3's, in `t`, in the order made.
fn some_forms(t: &mut ValueTable) -> Vec<GameId> {
    let day1: Vec<GameId> = ["0", "*", "1", "-1"].map(|s| t.parse(s).unwrap()).into();
    let subsets = |xs: &[GameId], mask: u32| -> Vec<GameId> {
        (0..xs.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| xs[i])
            .collect()
    };
    let mut forms = day1.clone();
    for l in 0..16 {
        for r in 0..16 {
            let g = t.game(&subsets(&day1, l), &subsets(&day1, r)).unwrap();
            if !forms.contains(&g) {
                forms.push(g);
            }
        }
    }
    let day2 = forms.clone();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let pick = |s: u64| -> Vec<GameId> {
            (0..3)
                .map(|k| day2[(s >> (8 * k)) as usize % day2.len()])
                .take(1 + (s >> 30) as usize % 3)
                .collect()
        };
        let g = t.game(&pick(seed), &pick(seed >> 32)).unwrap();
        if !forms.contains(&g) {
            forms.push(g);
        }
    }
    forms
}

#[test]
fn the_form_order_is_structural_total_and_the_brute_forces() {
    let mut t = ValueTable::new();
    let forms = some_forms(&mut t);
    assert!(forms.len() > 100, "{}", forms.len());
    // Against the brute force, for every pair; a strict total order on distinct forms.
    let keys: Vec<FormKey> = forms.iter().map(|&g| form_key(&mut t, g)).collect();
    for (i, &a) in forms.iter().enumerate() {
        for (j, &b) in forms.iter().enumerate() {
            let o = t.form_order(a, b);
            assert_eq!(o, keys[i].cmp(&keys[j]), "{} vs {}", t.show(a), t.show(b));
            assert_eq!(o == std::cmp::Ordering::Equal, i == j);
            assert_eq!(o, t.form_order(b, a).reverse());
        }
    }
    // The same forms made in another order, from their printed text read back from the last
    // to the first: other ids, the same order.
    let mut other = ValueTable::new();
    let texts: Vec<String> = forms.iter().map(|&g| t.show(g)).collect();
    let again: Vec<GameId> = texts
        .iter()
        .rev()
        .map(|s| other.parse(s).unwrap())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let ids_agree = forms
        .iter()
        .zip(&again)
        .all(|(a, b)| forms.iter().zip(&again).all(|(c, d)| (a < c) == (b < d)));
    assert!(
        !ids_agree,
        "the second table should make the forms in another order"
    );
    let sorted = |t: &mut ValueTable, gs: &[GameId]| {
        let mut gs = gs.to_vec();
        gs.sort_by(|&a, &b| t.form_order(a, b));
        gs.into_iter().map(|g| t.show(g)).collect::<Vec<_>>()
    };
    assert_eq!(sorted(&mut t, &forms), sorted(&mut other, &again));
}
