//! The name policy of accounts and guests (docs/server-protocol.md, "Accounts and security").
//!
//! A name is normalised with Unicode NFKC (full-width `ａｌｉｃｅ` becomes `alice`), then checked:
//! 2 to 24 characters (a letter with its accent counts once); only letters, decimal digits, `_`
//! and `-`, each allowed for identifiers by the General Security Profile of Unicode Technical
//! Standard #39; no control, format (bidi overrides, zero-width characters), private-use or
//! unassigned characters; at most one combining mark on a letter; no mix of scripts that have
//! look-alike letters (Latin with Cyrillic or Greek: UTS #39 "highly restrictive" is the most
//! allowed, so Latin with Chinese, Japanese or Korean is fine).
//!
//! Two names are the same name when their keys ([`name_key`]) are equal: the key is the UTS #39
//! confusable skeleton of the lower-cased name, lower-cased again, with `i` read as `l` (a capital
//! `I` and a small `l` look the same in many fonts), repeated until it no longer changes. So
//! `ALICE`, `аlice` (Cyrillic а), `ａｌｉｃｅ`, `aIice` and `al1ce` are all the name `alice`.
//!
//! Reserved (for every name a person chooses, account or guest): names whose key begins with the
//! key of `guest`, `游客`, `电脑`, `computer`, `admin`, `system`, `junqi`, `军棋`, `管理员`, `系统`,
//! `官方`, `official` or `moderator`, and `bot` alone or followed by a digit, `-` or `_` (`bot`,
//! `bot-1`, `b0t_x`; `botany` is fine). The server's own guest names (`Guest-1234`) are made
//! without this check.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};
use unicode_script::{Script, UnicodeScript};
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

/// The fewest characters in a name.
pub const MIN_CHARS: usize = 2;
/// The most characters in a name.
pub const MAX_CHARS: usize = 24;

/// Names (and name beginnings) that nobody may choose: see the module documentation.
pub const RESERVED_PREFIXES: &[&str] = &[
    "guest",
    "游客",
    "电脑",
    "computer",
    "admin",
    "system",
    "junqi",
    "军棋",
    "管理员",
    "系统",
    "官方",
    "official",
    "moderator",
];

/// Reserved when alone or followed by a digit, `-` or `_`: the names of the computer players.
pub const RESERVED_WORD_BOT: &str = "bot";

/// A name that passed the policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedName {
    /// The name as shown (NFKC, without surrounding white space).
    pub display: String,
    /// Its key: equal keys are the same name ([`name_key`]).
    pub key: String,
}

/// Why a name was refused; the text says what is wrong, [`NameError::code`] and
/// [`NameError::args`] say it for the client to translate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Too short or too long (the count of characters).
    #[error("a name has 2 to 24 characters (this one has {0})")]
    Length(usize),
    /// White space inside the name.
    #[error("a name has no spaces")]
    Space,
    /// A control character.
    #[error("the name contains the control character {}", describe(*.0))]
    Control(char),
    /// An invisible formatting character (bidi override, zero-width character, ...).
    #[error("the name contains the invisible formatting character {} (such as a direction override or a zero-width character)", describe(*.0))]
    Format(char),
    /// A private-use character.
    #[error("the name contains the private-use character {}", describe(*.0))]
    PrivateUse(char),
    /// A code point that Unicode has not assigned.
    #[error("the name contains the unassigned code point {}", describe(*.0))]
    Unassigned(char),
    /// A combining mark with no letter before it.
    #[error("the name has the combining mark {} where no letter is before it", describe(*.0))]
    LeadingMark(char),
    /// More than one combining mark on one letter.
    #[error("the name has more than one combining mark on one letter (at {})", describe(*.0))]
    StackedMarks(char),
    /// A character that is not a letter, a digit, `_` or `-`.
    #[error("the name contains {}: a name has letters, digits, '_' and '-' only", describe(*.0))]
    Character(char),
    /// A letter that Unicode's security profile does not allow in identifiers.
    #[error("the name contains {}, which is not allowed in names (Unicode TS #39 restricts it)", describe(*.0))]
    Restricted(char),
    /// Letters of scripts that look alike (Latin with Cyrillic, ...): the scripts' English names.
    #[error("the name mixes the scripts {}, whose letters look alike; write it in one script", and_list(.0))]
    MixedScripts(Vec<String>),
    /// A reserved name or beginning.
    #[error("the name {0:?} is reserved (names like guest-…, bot…, 电脑, computer, admin, system and junqi are kept for the server)")]
    Reserved(String),
}

impl NameError {
    /// The stable code the client translates (`name.*`, docs/server-protocol.md).
    pub fn code(&self) -> &'static str {
        use NameError::*;
        match self {
            Length(_) => "name.length",
            Space => "name.space",
            Control(_) => "name.control",
            Format(_) => "name.format",
            PrivateUse(_) => "name.private_use",
            Unassigned(_) => "name.unassigned",
            LeadingMark(_) => "name.leading_mark",
            StackedMarks(_) => "name.stacked_marks",
            Character(_) => "name.character",
            Restricted(_) => "name.restricted",
            MixedScripts(_) => "name.mixed_scripts",
            Reserved(_) => "name.reserved",
        }
    }

    /// The variant's data: `{count, min, max}`, `{char, code_point}` (the character and its
    /// `U+XXXX`), `{scripts}` (English script names) or `{name}`.
    pub fn args(&self) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::json;
        use NameError::*;
        let v = match self {
            Length(n) => json!({"count": n, "min": MIN_CHARS, "max": MAX_CHARS}),
            Space => json!({}),
            Control(c) | Format(c) | PrivateUse(c) | Unassigned(c) | LeadingMark(c)
            | StackedMarks(c) | Character(c) | Restricted(c) => {
                json!({"char": c.to_string(), "code_point": format!("U+{:04X}", *c as u32)})
            }
            MixedScripts(s) => json!({"scripts": s}),
            Reserved(n) => json!({"name": n}),
        };
        match v {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        }
    }
}

/// `'x' (U+0078)` for messages.
fn describe(c: char) -> String {
    if c.is_control() || matches!(c.general_category(), GeneralCategory::Format) {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{c}' (U+{:04X})", c as u32)
    }
}

/// "Latin, Greek and Cyrillic" for messages.
fn and_list(names: &[String]) -> String {
    match names.len() {
        0 => "(none)".into(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// A character that shows nothing or changes how the text around it shows: controls, format
/// characters (bidi overrides and isolates, zero-width spaces and joiners), private-use,
/// unassigned and surrogate code points. Names refuse them; chat removes them.
pub fn is_hidden(c: char) -> bool {
    matches!(
        c.general_category(),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::PrivateUse
            | GeneralCategory::Unassigned
            | GeneralCategory::Surrogate
    )
}

/// NFKC without surrounding white space.
pub fn normalise(name: &str) -> String {
    name.trim().nfkc().collect::<String>().trim().to_string()
}

/// The key of a name (see the module documentation); the name need not pass the policy.
pub fn name_key(name: &str) -> String {
    let mut k = normalise(name);
    for _ in 0..4 {
        let next: String = unicode_security::skeleton(&k.to_lowercase())
            .collect::<String>()
            .to_lowercase()
            .chars()
            .map(|c| if c == 'i' { 'l' } else { c })
            .collect();
        if next == k {
            break;
        }
        k = next;
    }
    k
}

fn is_mark(c: char) -> bool {
    c.general_category_group() == GeneralCategoryGroup::Mark
}

/// The characters of a name as counted by the length rule: letters with their marks count once.
pub fn char_count(normalised: &str) -> usize {
    normalised.chars().filter(|&c| !is_mark(c)).count()
}

/// Check a name that a person chose (an account's or a guest's).
pub fn check(name: &str) -> Result<CheckedName, NameError> {
    // Far too long inputs are refused before any work on them.
    if name.len() > 16 * MAX_CHARS {
        return Err(NameError::Length(name.chars().count()));
    }
    let display = normalise(name);
    // The letter or digit the current combining marks are on, with those marks.
    let mut cluster: Option<String> = None;
    for c in display.chars() {
        match c.general_category() {
            GeneralCategory::Control => return Err(NameError::Control(c)),
            GeneralCategory::Format => return Err(NameError::Format(c)),
            GeneralCategory::PrivateUse => return Err(NameError::PrivateUse(c)),
            GeneralCategory::Unassigned | GeneralCategory::Surrogate => {
                return Err(NameError::Unassigned(c))
            }
            GeneralCategory::SpaceSeparator
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator => return Err(NameError::Space),
            _ => {}
        }
        if c.is_whitespace() {
            return Err(NameError::Space);
        }
        match c.general_category_group() {
            GeneralCategoryGroup::Mark => match cluster.as_mut() {
                None => return Err(NameError::LeadingMark(c)),
                Some(base) => {
                    // A mark NFKC could not compose into its letter, with another mark on that
                    // letter: stacked (`ệ` composes to one character and is fine).
                    base.push(c);
                    if base.nfd().filter(|m| is_mark(*m)).count() > 1 {
                        return Err(NameError::StackedMarks(c));
                    }
                }
            },
            GeneralCategoryGroup::Letter => cluster = Some(c.to_string()),
            _ if c.general_category() == GeneralCategory::DecimalNumber => {
                cluster = Some(c.to_string())
            }
            _ if c == '_' || c == '-' => cluster = None,
            _ => return Err(NameError::Character(c)),
        }
        if c != '_' && c != '-' && !c.identifier_allowed() {
            return Err(NameError::Restricted(c));
        }
    }
    let n = char_count(&display);
    if !(MIN_CHARS..=MAX_CHARS).contains(&n) {
        return Err(NameError::Length(n));
    }
    let letters: String = display.chars().filter(|&c| c != '_' && c != '-').collect();
    if letters.as_str().detect_restriction_level() > RestrictionLevel::HighlyRestrictive {
        return Err(NameError::MixedScripts(scripts_of(&letters)));
    }
    let key = name_key(&display);
    if is_reserved(&display, &key) {
        return Err(NameError::Reserved(display));
    }
    Ok(CheckedName { display, key })
}

/// The scripts of the letters of `s`, in order of appearance.
fn scripts_of(s: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for c in s.chars() {
        let script = c.script();
        if matches!(script, Script::Common | Script::Inherited | Script::Unknown) {
            continue;
        }
        let name = script.full_name().to_string();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Whether a normalised name (with its key) is reserved.
fn is_reserved(display: &str, key: &str) -> bool {
    if RESERVED_PREFIXES
        .iter()
        .any(|r| key.starts_with(&name_key(r)))
    {
        return true;
    }
    // `bot` alone or before a digit or separator: the shortest beginning of the name whose key is
    // the key of "bot", then what follows it.
    let bot = name_key(RESERVED_WORD_BOT);
    if !key.starts_with(&bot) {
        return false;
    }
    let chars: Vec<char> = display.chars().collect();
    (1..=chars.len()).any(|end| {
        let head: String = chars[..end].iter().collect();
        name_key(&head) == bot
            && chars.get(end).is_none_or(|&next| {
                next.is_ascii_digit() || next == '-' || next == '_' || {
                    next.general_category() == GeneralCategory::DecimalNumber
                }
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> String {
        name_key(s)
    }

    #[test]
    fn look_alikes_share_a_key() {
        let alice = key("alice");
        for n in [
            "ALICE",
            "Alice",
            "\u{430}lice",
            "ａｌｉｃｅ",
            "ＡＬＩＣＥ",
            "aIice",
            "al1ce",
            "al\u{131}ce",
        ] {
            assert_eq!(key(n), alice, "{n}");
        }
        assert_eq!(key("\u{430}\u{441}\u{435}"), key("ace"));
        assert_eq!(key("paypal"), key("\u{440}\u{430}y\u{440}\u{430}l"));
        assert_eq!(key("rn"), key("m"));
        assert_eq!(key("b0b"), key("bob"));
        assert_ne!(key("alice"), key("bob"));
        assert_ne!(key("张三"), key("张四"));
        // The key is a fixed point: keys of keys do not move.
        for n in ["ALICE", "Ｍａｒｙ", "张三", "x_y-z"] {
            assert_eq!(key(&key(n)), key(n), "{n}");
        }
    }

    #[test]
    fn good_names_pass() {
        for (n, shown) in [
            ("alice", "alice"),
            ("  bob_smith-2 ", "bob_smith-2"),
            ("张三", "张三"),
            ("司令王", "司令王"),
            ("小明2024", "小明2024"),
            ("Li小龙", "Li小龙"),
            ("ｂｏｂ", "bob"),
            ("Zoe\u{301}", "Zoé"),
            ("Nguye\u{302}\u{303}n", "Nguyễn"),
            ("Nguyễn", "Nguyễn"),
            ("q\u{303}q", "q\u{303}q"),
            ("Ελένη", "Ελένη"),
            ("Дмитрий", "Дмитрий"),
            ("さくら", "さくら"),
            ("김민준", "김민준"),
            ("botany", "botany"),
            ("ab", "ab"),
        ] {
            let c = check(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            assert_eq!(c.display, shown);
            assert_eq!(c.key, key(n));
        }
        assert!(check(&"长".repeat(24)).is_ok());
    }

    #[test]
    fn bad_names_fail_with_the_reason() {
        use NameError::*;
        type Expect = fn(&NameError) -> bool;
        let cases: Vec<(&str, Expect)> = vec![
            ("a", |e| matches!(e, Length(1))),
            ("张", |e| matches!(e, Length(1))),
            ("", |e| matches!(e, Length(0))),
            ("bob smith", |e| matches!(e, Space)),
            ("bob\u{3000}smith", |e| matches!(e, Space)),
            ("bob\u{7}", |e| matches!(e, Control(_))),
            ("ali\u{202E}ce", |e| matches!(e, Format(_))),
            ("ali\u{200B}ce", |e| matches!(e, Format(_))),
            ("ali\u{200D}ce", |e| matches!(e, Format(_))),
            ("ali\u{2066}ce", |e| matches!(e, Format(_))),
            ("\u{E000}bob", |e| matches!(e, PrivateUse(_))),
            ("bo\u{378}b", |e| matches!(e, Unassigned(_))),
            ("\u{301}bob", |e| matches!(e, LeadingMark(_))),
            ("a\u{301}\u{302}lice", |e| matches!(e, StackedMarks(_))),
            ("q\u{303}\u{301}q", |e| matches!(e, StackedMarks(_))),
            ("a_\u{301}b", |e| matches!(e, LeadingMark(_))),
            ("bob!", |e| matches!(e, Character(_))),
            ("bot:search-strong", |e| matches!(e, Character(_))),
            ("😀😀", |e| matches!(e, Character(_))),
            ("ᚠᚢᚦ", |e| matches!(e, Restricted(_))),
            ("\u{430}lice", |e| matches!(e, MixedScripts(_))),
            ("Αlice", |e| matches!(e, MixedScripts(_))),
            ("Guest-1234", |e| matches!(e, Reserved(_))),
            ("游客007", |e| matches!(e, Reserved(_))),
            ("GUEST", |e| matches!(e, Reserved(_))),
            ("bot", |e| matches!(e, Reserved(_))),
            ("Bot2", |e| matches!(e, Reserved(_))),
            ("b0t_x", |e| matches!(e, Reserved(_))),
            ("bot-search", |e| matches!(e, Reserved(_))),
            ("电脑", |e| matches!(e, Reserved(_))),
            ("电脑玩家", |e| matches!(e, Reserved(_))),
            ("Computer", |e| matches!(e, Reserved(_))),
            ("adrnin", |e| matches!(e, Reserved(_))),
            ("Administrator", |e| matches!(e, Reserved(_))),
            ("SYSTEM", |e| matches!(e, Reserved(_))),
            ("junqi_official", |e| matches!(e, Reserved(_))),
            ("军棋", |e| matches!(e, Reserved(_))),
        ];
        for (n, ok) in cases {
            match check(n) {
                Ok(c) => panic!("{n:?} passed as {c:?}"),
                Err(e) => {
                    assert!(ok(&e), "{n:?}: unexpected {e:?}");
                    assert!(!e.to_string().is_empty());
                }
            }
        }
        assert!(matches!(
            check(&"长".repeat(25)),
            Err(NameError::Length(25))
        ));
    }

    #[test]
    fn refusals_have_codes_and_args() {
        let e = check("ali\u{202E}ce").unwrap_err();
        assert_eq!(e.code(), "name.format");
        assert_eq!(
            serde_json::Value::Object(e.args()),
            serde_json::json!({"char": "\u{202E}", "code_point": "U+202E"})
        );
        let e = check("\u{430}lice").unwrap_err();
        assert_eq!(e.code(), "name.mixed_scripts");
        assert_eq!(
            e.args()["scripts"],
            serde_json::json!(["Cyrillic", "Latin"])
        );
        let e = check("a").unwrap_err();
        assert_eq!(e.code(), "name.length");
        assert_eq!(
            serde_json::Value::Object(e.args()),
            serde_json::json!({"count": 1, "min": 2, "max": 24})
        );
        let e = check("GUEST").unwrap_err();
        assert_eq!(
            (e.code(), e.args()["name"].as_str()),
            ("name.reserved", Some("GUEST"))
        );
        assert_eq!(check("bob smith").unwrap_err().code(), "name.space");
        assert_eq!(check("bob!").unwrap_err().args()["char"], "!");
    }

    #[test]
    fn messages_name_the_character() {
        let e = check("ali\u{202E}ce").unwrap_err().to_string();
        assert!(e.contains("U+202E"), "{e}");
        let e = check("\u{430}lice").unwrap_err().to_string();
        assert!(e.contains("Latin") && e.contains("Cyrillic"), "{e}");
        let e = check("bob!").unwrap_err().to_string();
        assert!(e.contains("'!' (U+0021)"), "{e}");
    }
}
