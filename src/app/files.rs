//! Recent files, kept in a small text file in the user's config folder.

use std::path::{Path, PathBuf};

/// How many recent files the File menu lists.
const KEEP: usize = 8;

/// The most recently opened or saved files, newest first.
#[derive(Debug, Clone, Default)]
pub(crate) struct Recent {
    paths: Vec<PathBuf>,
    /// Where the list is stored; `None` keeps it in memory (tests).
    store: Option<PathBuf>,
}

impl Recent {
    /// The list stored at `store` (missing or unreadable: empty).
    pub(crate) fn load(store: PathBuf) -> Recent {
        let paths = std::fs::read_to_string(&store)
            .map(|text| {
                text.lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(PathBuf::from)
                    .take(KEEP)
                    .collect()
            })
            .unwrap_or_default();
        Recent {
            paths,
            store: Some(store),
        }
    }

    /// `$XDG_CONFIG_HOME/caesar-workbench/recent` or `~/.config/...`.
    pub(crate) fn default_store() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
        Some(base.join("caesar-workbench").join("recent"))
    }

    pub(crate) fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Puts `path` first (once), keeps the newest few, and stores the list.
    /// Failing to store it is not worth bothering the user about.
    pub(crate) fn push(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.paths.retain(|p| p != &path);
        self.paths.insert(0, path);
        self.paths.truncate(KEEP);
        if let Some(store) = &self.store {
            let text: String = self
                .paths
                .iter()
                .map(|p| format!("{}\n", p.display()))
                .collect();
            if let Some(dir) = store.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = crate::files::save_atomically(store, &text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_newest_first_unique_and_stored() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("cfg").join("recent");
        let mut recent = Recent::load(store.clone());
        assert!(recent.paths().is_empty());
        let files: Vec<PathBuf> = (0..10)
            .map(|i| {
                let p = dir.path().join(format!("s{i}.ron"));
                std::fs::write(&p, "").unwrap();
                p.canonicalize().unwrap()
            })
            .collect();
        for f in &files {
            recent.push(f);
        }
        recent.push(&files[3]);
        assert_eq!(recent.paths().len(), KEEP);
        assert_eq!(recent.paths()[0], files[3]);
        assert_eq!(recent.paths()[1], files[9]);
        assert_eq!(recent.paths().iter().filter(|p| **p == files[3]).count(), 1);
        let again = Recent::load(store);
        assert_eq!(again.paths(), recent.paths());
    }
}
