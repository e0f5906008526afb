//! A proved monoid presented as the literature prints a quotient: generators (the heaps whose
//! elements are not products of smaller heaps'), each element as its least monomial, the
//! relations rewriting the other monomials to them.

use std::collections::BTreeMap;

use super::Quotient;

/// The quotient a proved monoid is, presented: `times` its products (`x * order + y`),
/// `heap_class` each heap's element, `accepts` its P-portion; its elements renumbered by
/// least monomials.
pub(super) fn presented(
    name: &str,
    n: usize,
    times: &[u32],
    heap_class: &dyn Fn(usize) -> u32,
    accepts: &[bool],
) -> Quotient {
    let order = accepts.len();
    let product = |x: u32, y: u32| times[x as usize * order + y as usize];
    // Generators: heaps whose class is not in the monoid the earlier generators make.
    let mut generators = Vec::new();
    let mut made = vec![false; order];
    made[0] = true;
    for h in 0..=n {
        let c = heap_class(h);
        if made[c as usize] {
            continue;
        }
        generators.push(h);
        // Close the monoid under the new generator.
        let mut frontier: Vec<u32> = (0..order as u32).filter(|&x| made[x as usize]).collect();
        while let Some(x) = frontier.pop() {
            let y = product(x, c);
            if !made[y as usize] {
                made[y as usize] = true;
                frontier.push(y);
            }
        }
    }
    // Least monomials, degree by degree; within a degree, more of earlier generators
    // first (a monomial order, so the least monomials are closed under division).
    let g = generators.len();
    let gen_class: Vec<u32> = generators.iter().map(|&h| heap_class(h)).collect();
    let mut least: Vec<Option<Vec<u32>>> = vec![None; order];
    let mut class_of: BTreeMap<Vec<u32>, u32> = BTreeMap::new();
    least[0] = Some(vec![0; g]);
    class_of.insert(vec![0; g], 0);
    let mut level: Vec<Vec<u32>> = vec![vec![0; g]];
    let mut relations: Vec<(Vec<u32>, u32)> = Vec::new();
    while !level.is_empty() {
        let mut candidates: Vec<Vec<u32>> = Vec::new();
        for m in &level {
            for i in 0..g {
                let mut next = m.clone();
                next[i] += 1;
                candidates.push(next);
            }
        }
        candidates.sort_by(|a, b| b.cmp(a));
        candidates.dedup();
        let mut next_level = Vec::new();
        for m in candidates {
            // Every divisor must be a least monomial; else a relation already covers it.
            let divisors_least = (0..g).filter(|&i| m[i] > 0).all(|i| {
                let mut d = m.clone();
                d[i] -= 1;
                class_of.contains_key(&d)
            });
            if !divisors_least {
                continue;
            }
            let i = (0..g).find(|&i| m[i] > 0).unwrap_or(0);
            let mut d = m.clone();
            d[i] -= 1;
            let x = product(class_of[&d], gen_class[i]);
            if least[x as usize].is_none() {
                least[x as usize] = Some(m.clone());
                class_of.insert(m.clone(), x);
                next_level.push(m);
            } else {
                relations.push((m, x));
            }
        }
        level = next_level;
    }
    // Number the elements by their least monomials' order.
    let mut by_monomial: Vec<(Vec<u32>, u32)> = least
        .iter()
        .enumerate()
        .map(|(x, m)| (m.clone().unwrap_or_default(), x as u32))
        .collect();
    let key = |m: &Vec<u32>| (m.iter().sum::<u32>(), std::cmp::Reverse(m.clone()));
    by_monomial.sort_by_key(|(m, _)| key(m));
    let mut renumber = vec![0u32; order];
    for (new, (_, old)) in by_monomial.iter().enumerate() {
        renumber[*old as usize] = new as u32;
    }
    let mut times = vec![0u32; order * order];
    for (x, (_, ox)) in by_monomial.iter().enumerate() {
        for (y, (_, oy)) in by_monomial.iter().enumerate() {
            times[x * order + y] = renumber[product(*ox, *oy) as usize];
        }
    }
    relations.sort_by_key(|(m, _)| key(m));
    Quotient {
        name: name.to_string(),
        heaps: n,
        generators,
        monomials: by_monomial.iter().map(|(m, _)| m.clone()).collect(),
        times,
        p: by_monomial
            .iter()
            .map(|(_, x)| accepts[*x as usize])
            .collect(),
        pretend: (0..=n).map(|h| renumber[heap_class(h) as usize]).collect(),
        relations: relations
            .into_iter()
            .map(|(m, x)| (m, renumber[x as usize]))
            .collect(),
    }
}
