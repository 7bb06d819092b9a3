//! Square sets as bitsets. Squares are small integers (indices into a board's square table), so a
//! set of squares is a bitset: one `u64` word for the 60-square two-player board, three words for
//! the 129-square four-player board. The move generator is generic over [`Bits`] so that the
//! two-player board pays for one word only.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// Storage form of a square set, wide enough for either board. Tables and positions store this;
/// the generator loads it into the board's own [`Bits`] type.
pub type Words = [u64; 3];

/// Operations the move generator needs from a square set.
pub trait Bits:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// Load from storage form.
    fn load(w: &Words) -> Self;
    /// The set holding one square.
    fn bit(sq: u8) -> Self;
    /// Whether the square is in the set.
    fn has(self, sq: u8) -> bool;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// Remove and return the lowest square.
    fn pop(&mut self) -> Option<u8>;
}

impl Bits for u64 {
    const EMPTY: u64 = 0;
    #[inline(always)]
    fn load(w: &Words) -> u64 {
        w[0]
    }
    #[inline(always)]
    fn bit(sq: u8) -> u64 {
        1u64 << sq
    }
    #[inline(always)]
    fn has(self, sq: u8) -> bool {
        self >> sq & 1 != 0
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<u8> {
        if *self == 0 {
            None
        } else {
            let i = self.trailing_zeros() as u8;
            *self &= *self - 1;
            Some(i)
        }
    }
}

/// A three-word square set (the four-player board).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wide(pub Words);

impl BitAnd for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitand(self, o: Wide) -> Wide {
        Wide([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }
}
impl BitOr for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitor(self, o: Wide) -> Wide {
        Wide([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }
}
impl Not for Wide {
    type Output = Wide;
    #[inline(always)]
    fn not(self) -> Wide {
        Wide([!self.0[0], !self.0[1], !self.0[2]])
    }
}
impl BitAndAssign for Wide {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Wide) {
        *self = *self & o;
    }
}
impl BitOrAssign for Wide {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Wide) {
        *self = *self | o;
    }
}

impl Bits for Wide {
    const EMPTY: Wide = Wide([0; 3]);
    #[inline(always)]
    fn load(w: &Words) -> Wide {
        Wide(*w)
    }
    #[inline(always)]
    fn bit(sq: u8) -> Wide {
        let mut w = [0; 3];
        w[(sq >> 6) as usize] = 1u64 << (sq & 63);
        Wide(w)
    }
    #[inline(always)]
    fn has(self, sq: u8) -> bool {
        self.0[(sq >> 6) as usize] >> (sq & 63) & 1 != 0
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<u8> {
        for (i, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let b = w.trailing_zeros() as u8;
                *w &= *w - 1;
                return Some(b + 64 * i as u8);
            }
        }
        None
    }
}

/// Set or clear one square in storage form.
#[inline(always)]
pub fn set_word(w: &mut Words, sq: u8, on: bool) {
    let m = 1u64 << (sq & 63);
    if on {
        w[(sq >> 6) as usize] |= m;
    } else {
        w[(sq >> 6) as usize] &= !m;
    }
}

/// Whether a square is in a set in storage form.
#[inline(always)]
pub fn has_word(w: &Words, sq: u8) -> bool {
    w[(sq >> 6) as usize] >> (sq & 63) & 1 != 0
}

/// Iterate the squares of a set in storage form, lowest first.
pub fn iter_words(w: Words) -> impl Iterator<Item = u8> {
    let mut s = Wide(w);
    std::iter::from_fn(move || s.pop())
}

/// Number of squares in a set in storage form.
pub fn count_words(w: &Words) -> u32 {
    w.iter().map(|x| x.count_ones()).sum()
}
