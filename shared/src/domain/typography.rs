//! French typography for text shown on screen: the spaces that must not
//! break a line. Content may be written with ordinary spaces; the catalogue
//! passes every displayed string through [`french_spacing`], so a `?` never
//! starts a line on a phone and `1 800 $` never splits.

use crate::domain::content::Test;

/// Narrow no-break space, before `?`, `!` and `;`.
const NARROW: char = '\u{202F}';
/// No-break space, before `:` and `»`, after `«`, inside numbers and before units.
const NO_BREAK: char = '\u{00A0}';

/// Replaces the ordinary spaces that French typography binds to their
/// neighbour: before `? ! ;` (narrow), before `: »` and after `«`, between a
/// number and `$ % ¢` or the hour sign `h` (and its minutes), and between
/// groups of thousands (`1 800`, `450 555`). Other spaces, and text already
/// typeset, are unchanged.
pub fn french_spacing(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        if c != ' ' {
            out.push(c);
            continue;
        }
        let before = |k: usize| i.checked_sub(k).and_then(|p| chars.get(p)).copied();
        let after = |k: usize| chars.get(i + 1 + k).copied();
        let (prev, next) = (before(1), after(0));
        let digit_before = prev.is_some_and(|p| p.is_ascii_digit());
        let thousands = (0..3).all(|k| after(k).is_some_and(|d| d.is_ascii_digit()))
            && !after(3).is_some_and(|d| d.is_ascii_digit());
        let hour = next == Some('h') && !after(1).is_some_and(char::is_alphabetic);
        // The minutes of "18 h 30".
        let minutes = prev == Some('h')
            && matches!(before(2), Some(' ' | NO_BREAK))
            && before(3).is_some_and(|d| d.is_ascii_digit())
            && next.is_some_and(|d| d.is_ascii_digit());
        out.push(match next {
            Some('?' | '!' | ';') => NARROW,
            Some(':' | '»') => NO_BREAK,
            _ if prev == Some('«') => NO_BREAK,
            Some('$' | '%' | '¢') if digit_before => NO_BREAK,
            _ if digit_before && (thousands || hour) => NO_BREAK,
            _ if minutes => NO_BREAK,
            _ => ' ',
        });
    }
    out
}

/// Applies [`french_spacing`] to everything of a test that is shown as text:
/// titles, documents, prompts, options and explanations. Audio scripts are
/// left as written, since they are what the speech is rendered (and cached) from.
pub fn typeset(test: &mut Test) {
    let fix = |s: &mut String| *s = french_spacing(s);
    fix(&mut test.title);
    for d in &mut test.documents {
        d.title.iter_mut().for_each(fix);
        d.text.iter_mut().for_each(fix);
    }
    for q in &mut test.questions {
        fix(&mut q.prompt);
        q.options.iter_mut().for_each(fix);
        fix(&mut q.explanation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuation_is_bound_to_the_word_before() {
        assert_eq!(
            french_spacing("C'est bien ça ? Oui ! Enfin ; voici : « le chat »."),
            "C'est bien ça\u{202F}? Oui\u{202F}! Enfin\u{202F}; voici\u{A0}: «\u{A0}le chat\u{A0}»."
        );
    }

    #[test]
    fn numbers_stay_whole() {
        assert_eq!(
            french_spacing("1 800 $ par mois, 25 %, de 10 h à 18 h 30, au 450 555-0134"),
            "1\u{A0}800\u{A0}$ par mois, 25\u{A0}%, de 10\u{A0}h à 18\u{A0}h\u{A0}30, au 450\u{A0}555-0134"
        );
    }

    #[test]
    fn other_spaces_are_left_alone() {
        for text in [
            "Bonjour à tous.",
            "Il a 2 heures de retard et 3 hamsters.",
            "En 2024 12 personnes",
            "Option A: the key is B.",
            "deja\u{A0}: typeset\u{202F}?",
            "",
        ] {
            assert_eq!(french_spacing(text), text);
        }
    }

    #[test]
    fn typesetting_twice_changes_nothing() {
        let once = french_spacing("Prix : 1 250 $ ? « Oui » !");
        assert_eq!(french_spacing(&once), once);
    }
}
