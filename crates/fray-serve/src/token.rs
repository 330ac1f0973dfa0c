//! Unguessable tokens and ids, from the operating system's CSPRNG; the hash under which a token
//! is stored and looked up (the database never holds a token itself); a comparison of secrets
//! in constant time.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// `n` random bytes in lowercase hex.
fn random_hex(n: usize) -> Result<String, String> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness from the system: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// An access token: 256 random bits.
pub fn token() -> Result<String, String> {
    random_hex(32)
}

/// What the store keeps of a token: its SHA-256, in lowercase hex. A token is 256 random
/// bits, so a fast hash suffices (nothing to guess from); someone who reads the database
/// learns no token that opens a fight.
pub fn hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether the secret `given` is `expected`, in a time that does not depend on where they
/// differ or on their lengths (their hashes are compared in constant time).
pub fn same(given: &str, expected: &str) -> bool {
    let (a, b) = (
        Sha256::digest(given.as_bytes()),
        Sha256::digest(expected.as_bytes()),
    );
    a.ct_eq(&b).into()
}

/// A fight's id: 128 random bits.
pub fn fight_id() -> Result<String, String> {
    random_hex(16)
}

/// A random seed for fray's dice.
pub fn random_seed() -> Result<u64, String> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness from the system: {e}"))?;
    Ok(u64::from_le_bytes(bytes))
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_long_and_differ() {
        let (a, b) = (super::token().unwrap(), super::token().unwrap());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn a_hash_is_sha_256_in_hex() {
        // FIPS 180-2, appendix B.1: SHA-256("abc").
        assert_eq!(
            super::hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let token = super::token().unwrap();
        assert_ne!(super::hash(&token), token);
        assert_eq!(super::hash(&token), super::hash(&token.clone()));
    }

    #[test]
    fn secrets_are_the_same_only_when_equal() {
        assert!(super::same("key", "key"));
        assert!(!super::same("key", "kez"));
        assert!(!super::same("key", "key "));
        assert!(!super::same("", "key"));
    }
}
