//! Name matching: aliases are case-insensitive, and unknown names get a
//! did-you-mean suggestion of the nearest known name.

/// Lower-cases and collapses whitespace so "mare  internum" finds "Mare Internum".
pub fn normalise(name: &str) -> String {
    name.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Names are compared by at most this many leading characters: edit
/// distance is quadratic in length, and no real name comes near it, so a
/// 20,000-character name costs what a 64-character one does.
const COMPARED_CHARS: usize = 64;

/// [`normalise`], cut to [`COMPARED_CHARS`] characters.
fn comparable(name: &str) -> String {
    normalise(name).chars().take(COMPARED_CHARS).collect()
}

/// The known name closest to `unknown`, if any is close enough to be a likely typo.
pub fn nearest<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let target = comparable(unknown);
    let mut best: Option<(&'a str, f64)> = None;
    for candidate in known {
        let cand = comparable(candidate);
        let score = strsim::normalized_damerau_levenshtein(&target, &cand)
            .max(strsim::jaro_winkler(&target, &cand) - 0.1);
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((candidate, score));
        }
    }
    best.filter(|&(_, score)| score >= 0.6)
        .map(|(name, _)| name)
}

/// " (did you mean `X`?)" or nothing.
pub fn did_you_mean<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    nearest(unknown, known)
        .map(|s| format!(" (did you mean \"{s}\"?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_closest_name_for_a_typo() {
        let known = ["Massilia", "Messana", "Roma", "Ravenna"];
        assert_eq!(nearest("Masilia", known), Some("Massilia"));
        assert_eq!(nearest("Ravena", known), Some("Ravenna"));
        assert_eq!(nearest("roma", known), Some("Roma"));
    }

    #[test]
    fn gives_no_suggestion_for_something_unrelated() {
        assert_eq!(nearest("Xyzzyq", ["Massilia", "Roma"]), None);
    }

    #[test]
    fn a_very_long_name_with_a_typo_still_finds_its_match() {
        let long: String = "Roma".repeat(5_000);
        let typo = format!("X{}", &long[1..]);
        let other = "Massilia".repeat(2_500);
        assert_eq!(
            nearest(&typo, [long.as_str(), other.as_str()]),
            Some(long.as_str())
        );
    }

    #[test]
    fn normalise_ignores_case_and_spacing() {
        assert_eq!(normalise("  Mare   Internum "), "mare internum");
    }
}
