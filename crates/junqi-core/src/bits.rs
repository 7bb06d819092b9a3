//! Square sets as bitsets. Squares are small integers (indices into a board's square table), so a
//! set of squares is a bitset. Each board pays only for the words it needs: one `u64` for the
//! 60-square two-player board, [`Wide<2>`] for the 99-square three-player board, [`Wide<3>`] for
//! the 129-square four-player board, [`Wide<4>`] for the 193-square six-player board. The move
//! generator is generic over [`Bits`] and is instantiated once per width.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// Number of `u64` words of the storage form: enough for the largest board (193 squares).
pub const WORDS: usize = 4;

/// Storage form of a square set, wide enough for any board. Tables and positions store this;
/// the generator loads the words its board needs into the board's own [`Bits`] type.
pub type Words = [u64; WORDS];

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

/// An `N`-word square set (the three-, four- and six-player boards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

impl<const N: usize> BitAnd for Wide<N> {
    type Output = Wide<N>;
    #[inline(always)]
    fn bitand(self, o: Wide<N>) -> Wide<N> {
        Wide(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}
impl<const N: usize> BitOr for Wide<N> {
    type Output = Wide<N>;
    #[inline(always)]
    fn bitor(self, o: Wide<N>) -> Wide<N> {
        Wide(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}
impl<const N: usize> Not for Wide<N> {
    type Output = Wide<N>;
    #[inline(always)]
    fn not(self) -> Wide<N> {
        Wide(std::array::from_fn(|i| !self.0[i]))
    }
}
impl<const N: usize> BitAndAssign for Wide<N> {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Wide<N>) {
        *self = *self & o;
    }
}
impl<const N: usize> BitOrAssign for Wide<N> {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Wide<N>) {
        *self = *self | o;
    }
}

impl<const N: usize> Bits for Wide<N> {
    const EMPTY: Wide<N> = Wide([0; N]);
    #[inline(always)]
    fn load(w: &Words) -> Wide<N> {
        Wide(std::array::from_fn(|i| w[i]))
    }
    #[inline(always)]
    fn bit(sq: u8) -> Wide<N> {
        let mut w = [0; N];
        w[(sq >> 6) as usize] = 1u64 << (sq & 63);
        Wide(w)
    }
    #[inline(always)]
    fn has(self, sq: u8) -> bool {
        self.0[(sq >> 6) as usize] >> (sq & 63) & 1 != 0
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_sets_round_trip_every_square() {
        fn check<const N: usize>() {
            for sq in 0..(64 * N) as u16 {
                let sq = sq as u8;
                let mut w = [0u64; WORDS];
                set_word(&mut w, sq, true);
                let s = Wide::<N>::load(&w);
                assert!(s.has(sq) && s == Wide::<N>::bit(sq));
                let mut t = s;
                assert_eq!((t.pop(), t.is_empty()), (Some(sq), true));
            }
        }
        check::<2>();
        check::<3>();
        check::<4>();
        let all: Vec<u8> = iter_words([1, 0, 0, 1 << 63]).collect();
        assert_eq!(all, vec![0, 255]);
    }
}
