//! "Did you mean ...?" suggestions for misspelt names.

/// The candidate closest to `name`, if one is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        let distance = strsim::levenshtein(&name.to_lowercase(), &candidate.to_lowercase());
        let allowed = (name.chars().count().max(candidate.chars().count()) / 3).max(1);
        if distance <= allowed && best.is_none_or(|(d, c)| (distance, candidate) < (d, c)) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn suggests_close_names_only() {
        let names = ["Kayles", "Nim", "Wythoff"];
        assert_eq!(did_you_mean("Kayle", names), Some("Kayles"));
        assert_eq!(did_you_mean("kayles", names), Some("Kayles"));
        assert_eq!(did_you_mean("Chomp", names), None);
    }
}
