//! Unguessable tokens and ids, from the operating system's CSPRNG.

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
}
