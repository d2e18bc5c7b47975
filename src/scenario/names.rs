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
    let target: Vec<char> = comparable(unknown).chars().collect();
    let mut best: Option<(&'a str, f64)> = None;
    for candidate in known {
        let cand: Vec<char> = comparable(candidate).chars().collect();
        if !spend((target.len() * cand.len()).max(1) as u64) {
            return None;
        }
        let longest = target.len().max(cand.len()).max(1) as f64;
        let edit = 1.0 - strsim::generic_damerau_levenshtein(&target, &cand) as f64 / longest;
        let score = edit.max(strsim::generic_jaro_winkler(&target, &cand) - 0.1);
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((candidate, score));
        }
    }
    best.filter(|&(_, score)| score >= 0.6)
        .map(|(name, _)| name)
}

thread_local! {
    /// Comparison work left for suggestions on this thread (character pairs
    /// compared), or unlimited. See [`with_suggestion_budget`].
    static BUDGET: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Takes `cost` from the budget; false once it is spent.
fn spend(cost: u64) -> bool {
    BUDGET.with(|b| match b.get() {
        None => true,
        Some(left) if left >= cost => {
            b.set(Some(left - cost));
            true
        }
        Some(_) => {
            b.set(Some(0));
            false
        }
    })
}

/// Runs `work` with at most `pairs` character pairs compared for
/// did-you-mean suggestions on this thread: a file with thousands of
/// unknown names then validates in time linear in its size, the first
/// names getting their suggestions and the rest none. Deterministic: the
/// same file gets the same suggestions.
pub(crate) fn with_suggestion_budget<T>(pairs: u64, work: impl FnOnce() -> T) -> T {
    let outer = BUDGET.with(|b| b.replace(Some(pairs)));
    let result = work();
    BUDGET.with(|b| b.set(outer));
    result
}

/// " (did you mean `X`?)" or nothing.
pub(crate) fn did_you_mean<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    nearest(unknown, known)
        .map(|s| format!(" (did you mean {}?)", escaped(s)))
        .unwrap_or_default()
}

/// Whether `c` shows nothing where it stands: a zero-width or format
/// character (U+200B, U+FEFF, a soft hyphen...) or a control character.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00ad}'
                | '\u{034f}'
                | '\u{061c}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{180e}'
        )
        || ('\u{200b}'..='\u{200f}').contains(&c)
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2060}'..='\u{206f}').contains(&c)
        || c == '\u{feff}'
}

/// What is wrong with `name` as the name of a space, block or rule set:
/// empty, only spaces, or holding a character that shows nothing (so that
/// two names that read alike are different names).
pub fn name_problem(name: &str) -> Option<String> {
    if name.trim().is_empty() {
        return Some("a name must hold a letter, not be empty or only spaces".to_string());
    }
    if let Some(c) = name.chars().find(|c| is_invisible(*c)) {
        return Some(format!(
            "holds the invisible character U+{:04X}, so it reads like another name; take it out",
            c as u32
        ));
    }
    if name.trim() != name {
        return Some("starts or ends with a space".to_string());
    }
    None
}

/// `name` in quotes, with every character that shows nothing written as
/// `\u{200B}`, so a message never prints two different names alike.
pub fn escaped(name: &str) -> String {
    let mut text = String::from("\"");
    for c in name.chars() {
        if is_invisible(c) {
            text += &format!("\\u{{{:04X}}}", c as u32);
        } else {
            text.push(c);
        }
    }
    text.push('"');
    text
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
    fn suggestions_stop_when_their_budget_is_spent_and_come_back_after() {
        let known = ["Massilia", "Roma"];
        let first = with_suggestion_budget(200, || {
            (0..10)
                .map(|_| nearest("Masilia", known))
                .collect::<Vec<_>>()
        });
        assert_eq!(first[0], Some("Massilia"));
        assert_eq!(first[9], None, "the budget ran out");
        assert_eq!(nearest("Masilia", known), Some("Massilia"));
    }

    #[test]
    fn normalise_ignores_case_and_spacing() {
        assert_eq!(normalise("  Mare   Internum "), "mare internum");
    }
}
