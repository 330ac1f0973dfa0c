//! Reading input with a hard size limit, whatever the source: a regular file, a FIFO,
//! `/dev/zero`, `/dev/urandom` or a process substitution (`<(yes)`) is read for at most
//! `limit + 1` bytes, so memory stays bounded even when the source never ends.

use std::io::Read;

/// Why a bounded read failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The source could not be opened or read.
    #[error("{0}")]
    Io(String),
    /// The source has more than `limit` bytes.
    #[error("file is larger than the {limit}-byte limit")]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The source is not UTF-8 text.
    #[error("file is not UTF-8 text (byte {offset} is not valid UTF-8)")]
    NotText {
        /// Offset of the first invalid byte.
        offset: usize,
    },
}

/// Reads at most `limit` bytes of text from `reader` (it reads `limit + 1` to notice more).
pub fn read_text_limited(reader: impl Read, limit: u64) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Io(e.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    String::from_utf8(bytes).map_err(|e| ReadError::NotText {
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Reads the file at `path` (any kind of file) with [`read_text_limited`].
pub fn read_file_limited(path: &str, limit: u64) -> Result<String, ReadError> {
    let file = std::fs::File::open(path).map_err(|e| ReadError::Io(e.to_string()))?;
    read_text_limited(file, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_source_is_cut_at_the_limit() {
        let endless = std::io::repeat(b'a');
        assert_eq!(
            read_text_limited(endless, 1000),
            Err(ReadError::TooLarge { limit: 1000 })
        );
    }

    #[test]
    fn text_at_the_limit_is_read_and_one_byte_more_is_refused() {
        assert_eq!(read_text_limited(&b"abcd"[..], 4).as_deref(), Ok("abcd"));
        assert!(matches!(
            read_text_limited(&b"abcde"[..], 4),
            Err(ReadError::TooLarge { .. })
        ));
        assert!(matches!(
            read_text_limited(&[b'a', 0xff][..], 4),
            Err(ReadError::NotText { offset: 1 })
        ));
    }
}
