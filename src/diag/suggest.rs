//! "Did you mean ...?" suggestions for misspelt names.

/// Longest name, in bytes, compared for a suggestion.
const MOST_COMPARED: usize = 256;

/// The candidate closest to `name`, if one is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(usize, &'a str)> = None;
    // The distance costs the product of the lengths: a name longer than any typed by hand
    // gets no suggestion, and is suggested for none.
    if name.len() > MOST_COMPARED {
        return None;
    }
    let length = name.chars().count();
    for candidate in candidates {
        if candidate == name || candidate.len() > MOST_COMPARED {
            continue;
        }
        // The distance is at least the difference of the lengths.
        let other = candidate.chars().count();
        if length.abs_diff(other) > (length.max(other) / 3).max(1) {
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
        let long = "K".repeat(100_000);
        assert_eq!(did_you_mean(&long, [long.as_str(), "Kayles"]), None);
    }
}
