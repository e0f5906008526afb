//! Unit tests of the strategic-form algorithms on textbook games (the integration tests
//! compare them with an independent implementation on random games).

use super::*;

fn game(counts: Vec<usize>, cells: &[i64]) -> Game {
    let players = (0..counts.len()).map(|i| format!("P{i}")).collect();
    Game::new(
        players,
        counts,
        cells.iter().map(|&c| Rational::int(c)).collect(),
    )
    .unwrap()
}

fn show(m: &Mixed) -> String {
    m.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn rock_paper_scissors() {
    let g = game(
        vec![3, 3],
        &[0, 0, -1, 1, 1, -1, 1, -1, 0, 0, -1, 1, -1, 1, 1, -1, 0, 0],
    );
    let s = g.solve_zero_sum(&|| false).unwrap();
    assert_eq!(s.value, Q::zero());
    assert_eq!(show(&s.row), "1/3,1/3,1/3");
    assert_eq!(show(&s.column), "1/3,1/3,1/3");
    let all = g.support_enumeration(&|| false).unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(g.lemke_howson(&|| false).unwrap(), all);
    assert!(g.pure_equilibria(&|| false).unwrap().is_empty());
}

#[test]
fn battle_of_the_sexes() {
    let g = game(vec![2, 2], &[2, 1, 0, 0, 0, 0, 1, 2]);
    let all = g.support_enumeration(&|| false).unwrap();
    let shown: Vec<String> = all
        .iter()
        .map(|(x, y)| format!("{}|{}", show(x), show(y)))
        .collect();
    assert_eq!(shown, ["0,1|0,1", "2/3,1/3|1/3,2/3", "1,0|1,0"]);
    assert!(all.iter().all(|(x, y)| g.is_equilibrium(x, y)));
    assert_eq!(
        g.pure_equilibria(&|| false).unwrap(),
        vec![vec![0, 0], vec![1, 1]]
    );
}

#[test]
fn degenerate_games_are_refused() {
    // The column player is indifferent between both columns against the first row.
    let g = game(vec![2, 2], &[1, 1, 0, 1, 0, 0, 1, 0]);
    assert!(matches!(
        g.support_enumeration(&|| false),
        Err(StrategicError::Degenerate { .. })
    ));
}

#[test]
fn prisoners_dilemma_dominance() {
    // Cooperate, Defect.
    let g = game(vec![2, 2], &[-1, -1, -3, 0, 0, -3, -2, -2]);
    let strict = g.dominated(true, &g.all_strategies(), &|| false).unwrap();
    assert_eq!(strict, vec![vec![(0, 1)], vec![(0, 1)]]);
    let (steps, alive) = g
        .iterated_elimination(Dominance::Strict, &|| false)
        .unwrap();
    assert_eq!(
        steps,
        vec![(0, 0, Dominator::Pure(1)), (1, 0, Dominator::Pure(1))]
    );
    assert_eq!(alive, vec![vec![1], vec![1]]);
    let pareto = g.pareto_optimal(&|| false).unwrap();
    assert!(!pareto.contains(&vec![1, 1]));
}

#[test]
fn three_players() {
    // Each of three players gets 1 if all choose the same, else 0.
    let cells: Vec<i64> = (0..8)
        .flat_map(|i| {
            let same = i == 0 || i == 7;
            [i64::from(same); 3]
        })
        .collect();
    let g = game(vec![2, 2, 2], &cells);
    assert_eq!(
        g.pure_equilibria(&|| false).unwrap(),
        vec![vec![0, 0, 0], vec![1, 1, 1]]
    );
    let half = vec![Q::new(1.into(), 2.into()), Q::new(1.into(), 2.into())];
    let pay = g.expected_payoffs(&[half.clone(), half.clone(), half]);
    assert_eq!(pay[0].to_string(), "1/4");
}

#[test]
fn a_mixture_dominates_what_no_pure_strategy_does() {
    // Rows U, M, D against L, R; Row's payoffs 3 0 / 1 1 / 0 3: M is dominated by half U
    // and half D (3/2 > 1 against both), by neither alone.
    let g = game(vec![3, 2], &[3, 0, 0, 0, 1, 0, 1, 0, 0, 0, 3, 0]);
    let all = g.all_strategies();
    assert!(g.dominated(true, &all, &|| false).unwrap()[0].is_empty());
    let mixed = g.mixed_dominated(&all, &|| false).unwrap();
    assert_eq!(mixed[0].len(), 1);
    assert_eq!(mixed[0][0].0, 1);
    assert_eq!(show(&mixed[0][0].1), "1/2,0,1/2");
}

#[test]
fn weak_elimination_depends_on_the_order() {
    // T: (1,1) (0,0); M: (1,1) (2,1); B: (0,0) (2,1). M weakly dominates T and B. Removing
    // T first then B (the stated order) leaves M against both columns; removing B first
    // would make L dominate R, and T first alone would make R dominate L.
    let g = game(vec![3, 2], &[1, 1, 0, 0, 1, 1, 2, 1, 0, 0, 2, 1]);
    let (steps, alive) = g.iterated_elimination(Dominance::Weak, &|| false).unwrap();
    assert_eq!(
        steps,
        vec![(0, 0, Dominator::Pure(1)), (0, 2, Dominator::Pure(1))]
    );
    assert_eq!(alive, vec![vec![1], vec![0, 1]]);
    // After T alone is gone, R weakly dominates L.
    let rest = vec![vec![1, 2], vec![0, 1]];
    assert_eq!(
        g.dominated(false, &rest, &|| false).unwrap()[1],
        vec![(0, 1)]
    );
    // After B alone is gone, L weakly dominates R.
    let rest = vec![vec![0, 1], vec![0, 1]];
    assert_eq!(
        g.dominated(false, &rest, &|| false).unwrap()[1],
        vec![(1, 0)]
    );
}
