//! The game's moves in words, for the `history` command and the few last moves shown under the
//! board, and the result of the person's own last action, which stays under the board until
//! their next one (so it does not scroll away behind the bots' replies).

/// One announcement of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    /// The ply it happened in (counting from 1).
    ply: u32,
    /// The announcement in words.
    words: String,
}

/// Every announcement so far, and the person's last action.
#[derive(Default, Debug)]
pub struct History {
    lines: Vec<Line>,
    mine: Option<(u32, Vec<String>)>,
}

impl History {
    /// Note the announcements of ply `ply`; `by_me` when the person acted.
    pub fn push(&mut self, ply: u32, words: Vec<String>, by_me: bool) {
        if by_me {
            self.mine = Some((ply, words.clone()));
        }
        self.lines
            .extend(words.into_iter().map(|words| Line { ply, words }));
    }

    /// The whole game, one announcement per line, or `empty` when nothing happened yet.
    pub fn all(&self, ply_word: &str, empty: &str) -> String {
        if self.lines.is_empty() {
            return format!("{empty}\n");
        }
        self.lines
            .iter()
            .map(|l| format!("{ply_word}{:>4}  {}\n", l.ply, l.words))
            .collect()
    }

    /// The last `n` announcements, indented.
    pub fn last(&self, n: usize, ply_word: &str) -> String {
        let start = self.lines.len().saturating_sub(n);
        self.lines[start..]
            .iter()
            .map(|l| format!("  {ply_word}{:>4}  {}\n", l.ply, l.words))
            .collect()
    }

    /// The announcements of the person's last action, joined, with its ply.
    pub fn my_last(&self) -> Option<(u32, String)> {
        self.mine
            .as_ref()
            .map(|(ply, words)| (*ply, words.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_every_line_and_the_persons_last() {
        let mut h = History::default();
        assert_eq!(h.all("#", "none"), "none\n");
        h.push(1, vec!["S a6-a7 attacks: attacker wins".into()], true);
        h.push(2, vec!["N e7-e6".into()], false);
        h.push(3, vec!["S b6-b5".into()], true);
        h.push(4, vec!["N a8-a7".into(), "N flag on b12".into()], false);
        assert_eq!(h.all("#", "none").lines().count(), 5);
        assert_eq!(h.last(2, "#"), "  #   4  N a8-a7\n  #   4  N flag on b12\n");
        assert_eq!(h.my_last(), Some((3, "S b6-b5".into())));
    }
}
