//! The words of `junqi play`: the display language, piece and seat names, and the reasons of
//! eliminations and draws.

use junqi_core::{BoardKind, DrawReason, EliminationReason, Role, Seat};

/// Language of the display.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lang {
    /// Chinese (the default).
    Zh,
    /// English.
    En,
}

impl Lang {
    /// The Chinese or the English text.
    pub fn t(self, zh: &'static str, en: &'static str) -> &'static str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// A piece's name in exactly four display columns.
pub fn role_tile(role: Role, lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => role.chinese(),
        Lang::En => match role {
            Role::Marshal => "Mrsl",
            Role::General => "Genl",
            Role::MajorGeneral => "MGen",
            Role::Brigadier => "Brig",
            Role::Colonel => "Col ",
            Role::Major => "Maj ",
            Role::Captain => "Capt",
            Role::Lieutenant => "Lt  ",
            Role::Engineer => "Engr",
            Role::Bomb => "Bomb",
            Role::Landmine => "Mine",
            Role::Flag => "Flag",
        },
    }
}

/// A guess (标记) on a hidden piece in exactly four display columns: a short name and `?`.
pub fn guess_tile(role: Role, lang: Lang) -> &'static str {
    match lang {
        // One character each, told apart (军长 and 军旗 both start with 军).
        Lang::Zh => match role {
            Role::Marshal => "司? ",
            Role::General => "军? ",
            Role::MajorGeneral => "师? ",
            Role::Brigadier => "旅? ",
            Role::Colonel => "团? ",
            Role::Major => "营? ",
            Role::Captain => "连? ",
            Role::Lieutenant => "排? ",
            Role::Engineer => "工? ",
            Role::Bomb => "炸? ",
            Role::Landmine => "雷? ",
            Role::Flag => "旗? ",
        },
        Lang::En => match role {
            Role::Marshal => "Mr? ",
            Role::General => "Gn? ",
            Role::MajorGeneral => "MG? ",
            Role::Brigadier => "Br? ",
            Role::Colonel => "Co? ",
            Role::Major => "Mj? ",
            Role::Captain => "Cp? ",
            Role::Lieutenant => "Lt? ",
            Role::Engineer => "En? ",
            Role::Bomb => "Bm? ",
            Role::Landmine => "Mn? ",
            Role::Flag => "Fl? ",
        },
    }
}

/// A piece's name in running text.
pub fn role_word(role: Role, lang: Lang) -> String {
    match lang {
        Lang::Zh => role.chinese().to_string(),
        Lang::En => role.name().replace('_', " "),
    }
}

/// A role from what a player types: its Chinese name (司令) or first character (司, 雷, 旗),
/// its English name (`marshal`, `major general`), its code (`9`, `B`, `L`, `F`) or its tile
/// (`Mine`).
pub fn parse_role(text: &str) -> Option<Role> {
    let t = text.trim().trim_end_matches(['?', '？']);
    let lower = t.to_lowercase().replace([' ', '-'], "_");
    Role::ALL.into_iter().find(|&r| {
        let short = guess_tile(r, Lang::Zh).trim_end_matches([' ', '?']);
        t == r.chinese()
            || t == short
            || lower == r.name()
            || lower == role_tile(r, Lang::En).trim().to_lowercase()
            || (t.chars().count() == 1 && t.chars().next().and_then(Role::from_code) == Some(r))
    })
}

/// A seat's name: 南方, East, 红方 … Two-player 南方 北方; three-player 南方 东方 北方 (the
/// four-player seats without West); six-player by the seat's colour, as the web client names
/// them (six arms have no compass names; counter-clockwise from seat 0): 红方 蓝方 橙方 绿方 紫方
/// 黑方.
pub fn seat_name(board: BoardKind, seat: Seat, lang: Lang) -> &'static str {
    const ZH4: [&str; 4] = ["南方", "东方", "北方", "西方"];
    const EN4: [&str; 4] = ["South", "East", "North", "West"];
    const ZH6: [&str; 6] = ["红方", "蓝方", "橙方", "绿方", "紫方", "黑方"];
    const EN6: [&str; 6] = ["Red", "Blue", "Orange", "Green", "Purple", "Black"];
    let s = seat as usize;
    match (board, lang) {
        (BoardKind::TwoPlayer, Lang::Zh) => ["南方", "北方"][s.min(1)],
        (BoardKind::TwoPlayer, Lang::En) => ["South", "North"][s.min(1)],
        (BoardKind::SixPlayer, Lang::Zh) => ZH6[s.min(5)],
        (BoardKind::SixPlayer, Lang::En) => EN6[s.min(5)],
        (_, Lang::Zh) => ZH4[s.min(3)],
        (_, Lang::En) => EN4[s.min(3)],
    }
}

/// One character per seat for the board tiles: S N (two-player), S E N (three-player),
/// S E N W (four-player), and on the six-player board the seat's digit, which also begins the
/// names of its arm's squares (`3c6`).
pub fn seat_letter(board: BoardKind, seat: Seat) -> char {
    match (board, seat) {
        (BoardKind::TwoPlayer, 0) => 'S',
        (BoardKind::TwoPlayer, _) => 'N',
        (BoardKind::SixPlayer, s) => (b'0' + s.min(9)) as char,
        (_, 0) => 'S',
        (_, 1) => 'E',
        (_, 2) => 'N',
        _ => 'W',
    }
}

/// Why a seat was eliminated.
pub fn elimination_words(r: EliminationReason, lang: Lang) -> &'static str {
    match r {
        EliminationReason::FlagCaptured => lang.t("军旗被夺", "flag captured"),
        EliminationReason::NoMovablePieces => lang.t("无子可动", "no movable pieces"),
        EliminationReason::Blocked => lang.t("无路可走", "blocked"),
        EliminationReason::Skips => lang.t("超时过多", "too many skipped turns"),
        EliminationReason::Resigned => lang.t("投降", "resigned"),
        EliminationReason::Left => lang.t("逃跑", "left the table"),
    }
}

/// Why a game was drawn.
pub fn draw_words(r: DrawReason, lang: Lang) -> &'static str {
    match r {
        DrawReason::QuietPlies => lang.t("长时间无交战", "too many plies without an attack"),
        DrawReason::MaxPlies => lang.t("步数上限", "the ply limit"),
        DrawReason::Agreement => lang.t("双方同意", "agreement"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guesses_are_read_in_every_spelling() {
        for (text, role) in [
            ("司令", Role::Marshal),
            ("司令?", Role::Marshal),
            ("炸", Role::Bomb),
            ("雷", Role::Landmine),
            ("旗", Role::Flag),
            ("军长", Role::General),
            ("bomb", Role::Bomb),
            ("Major General", Role::MajorGeneral),
            ("mine", Role::Landmine),
            ("F", Role::Flag),
            ("9", Role::Marshal),
        ] {
            assert_eq!(parse_role(text), Some(role), "{text}");
        }
        assert_eq!(parse_role("大子"), None);
        assert_eq!(parse_role(""), None);
    }

    #[test]
    fn seats_have_distinct_names_and_letters_on_every_board() {
        for board in BoardKind::ALL {
            for lang in [Lang::Zh, Lang::En] {
                let names: std::collections::BTreeSet<&str> = board
                    .seat_range()
                    .map(|s| seat_name(board, s, lang))
                    .collect();
                assert_eq!(names.len(), board.seats(), "{board} {lang:?}");
            }
            let letters: std::collections::BTreeSet<char> =
                board.seat_range().map(|s| seat_letter(board, s)).collect();
            assert_eq!(letters.len(), board.seats(), "{board}");
        }
        assert_eq!(seat_name(BoardKind::ThreePlayer, 2, Lang::Zh), "北方");
        assert_eq!(seat_name(BoardKind::SixPlayer, 1, Lang::Zh), "蓝方");
        assert_eq!(seat_name(BoardKind::SixPlayer, 4, Lang::En), "Purple");
        assert_eq!(seat_letter(BoardKind::SixPlayer, 5), '5');
    }

    #[test]
    fn guess_tiles_are_four_columns_and_distinct() {
        for lang in [Lang::Zh, Lang::En] {
            let tiles: std::collections::BTreeSet<&str> =
                Role::ALL.iter().map(|&r| guess_tile(r, lang)).collect();
            assert_eq!(tiles.len(), 12);
        }
        // Latin tiles are four characters; Chinese ones one wide character and two narrow.
        assert!(Role::ALL
            .iter()
            .all(|&r| guess_tile(r, Lang::En).len() == 4));
        assert!(Role::ALL
            .iter()
            .all(|&r| guess_tile(r, Lang::Zh).chars().count() == 3));
    }
}
