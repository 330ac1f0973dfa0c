//! Output files (`--csv`, `--plot`) written safely: never onto an input file, always through a
//! temporary file in the same directory that is renamed over the target only on success, so a
//! failed run leaves the target as it was and fray never deletes a file it did not create.

use super::CliError;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Refuses `output` when it names the same file as any of `inputs` (same canonical path, or the
/// same device and inode: hard links and symbolic links are caught too), or when two outputs
/// name one file.
pub fn check_distinct(output: &str, flag: &str, inputs: &[(&str, &str)]) -> Result<(), CliError> {
    for (input, what) in inputs {
        if same_file(Path::new(output), Path::new(input)) {
            return Err(CliError::Input(format!(
                "{flag} {output} is the {what}; choose another output file"
            )));
        }
    }
    Ok(())
}

/// True when both paths exist and are one file.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            if ma.dev() == mb.dev() && ma.ino() == mb.ino() {
                return true;
            }
        }
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(ca), Ok(cb)) => ca == cb,
        _ => false,
    }
}

/// A file being written under a temporary name next to its target.
#[derive(Debug)]
pub struct OutputFile {
    target: PathBuf,
    /// The temporary file; empty once renamed over the target.
    temp: PathBuf,
    file: File,
}

impl OutputFile {
    /// Creates the temporary file (`.NAME.fray-PID.tmp` in the target's directory).
    pub fn create(target: &str) -> std::io::Result<OutputFile> {
        let target = PathBuf::from(target);
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| {
                std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name")
            })?;
        let temp = target.with_file_name(format!(".{name}.fray-{}.tmp", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        Ok(OutputFile { target, temp, file })
    }

    /// A handle writing to the temporary file (e.g. for a buffered writer).
    pub fn writer(&self) -> std::io::Result<File> {
        self.file.try_clone()
    }

    /// Flushes the temporary file to disk and renames it over the target.
    pub fn commit(mut self) -> std::io::Result<()> {
        self.file.sync_all()?;
        std::fs::rename(&self.temp, &self.target)?;
        self.temp = PathBuf::new();
        Ok(())
    }

    /// Writes all of `bytes` and commits.
    pub fn write_all_and_commit(mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.file.write_all(bytes)?;
        self.commit()
    }
}

impl Drop for OutputFile {
    /// Removes the temporary file if it was not committed (fray created it, so fray removes it;
    /// the target is never touched).
    fn drop(&mut self) {
        if !self.temp.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fray-outfile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    #[test]
    fn an_abandoned_output_leaves_the_target_and_no_temporary_file() {
        let dir = scratch("abandon");
        let target = dir.join("out.csv");
        std::fs::write(&target, "precious").unwrap();
        let out = OutputFile::create(target.to_str().unwrap()).unwrap();
        out.writer().unwrap().write_all(b"half").unwrap();
        drop(out);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "only the target is left"
        );
        let out = OutputFile::create(target.to_str().unwrap()).unwrap();
        out.write_all_and_commit(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_same_file_is_recognised_through_links() {
        let dir = scratch("same");
        let input = dir.join("v.toml");
        std::fs::write(&input, "x").unwrap();
        std::fs::hard_link(&input, dir.join("hard.toml")).unwrap();
        let i = input.to_str().unwrap();
        for output in [i.to_string(), format!("{}/./v.toml", dir.display())] {
            assert!(check_distinct(&output, "--csv", &[(i, "encounter file")]).is_err());
        }
        let hard = dir.join("hard.toml");
        assert!(check_distinct(hard.to_str().unwrap(), "--csv", &[(i, "encounter")]).is_err());
        let other = dir.join("other.csv");
        assert!(check_distinct(other.to_str().unwrap(), "--csv", &[(i, "encounter")]).is_ok());
        let _ = std::fs::remove_dir_all(dir);
    }
}
