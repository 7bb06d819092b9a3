//! Secrets: random tokens for clients, and the hashes that are all the database keeps of them
//! (a copied database file gives nobody a seat or a session).

use rand::RngCore;
use sha2::{Digest, Sha256};

/// A random token of `bytes` random bytes from the OS, in hex.
pub fn random_token(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut b);
    hex(&b)
}

/// The SHA-256 of a token, in hex: what is stored in place of the token. Tokens are long random
/// strings, so a plain (unsalted) hash is enough: there is nothing to guess.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashes_stable() {
        let a = random_token(16);
        assert_eq!(a.len(), 32);
        assert_ne!(a, random_token(16));
        assert_eq!(hash_token("abc"), hash_token("abc"));
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
