//! Every file the program reads or writes goes through here.
//!
//! Reads are size-limited (so `/dev/zero` or a mistyped multi-gigabyte file
//! ends with a message, not with all the memory) and remembered, so that a
//! command can refuse to write any of its outputs, standard output included,
//! over a file it read: every file of every `extends` chain, player files,
//! records, position files and reports alike.
//!
//! Writes go to a regular file atomically (a temporary file renamed into
//! place, the last version kept as `<name>.bak`), and to anything else (a
//! device such as `/dev/null` or `/dev/full`, a named pipe) in place, so a
//! device node is never replaced by a regular file and a failed write is an
//! error.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The most a scenario, variant, player, record or position file may hold.
/// The largest real ones are a few hundred kilobytes.
pub(crate) const MAX_INPUT_BYTES: u64 = 16 << 20;

/// Every file read so far by this process, as its path and identity.
static READ: Mutex<Vec<(PathBuf, Identity)>> = Mutex::new(Vec::new());

/// What makes two paths the same file: device and inode on Unix, the
/// canonical path elsewhere.
#[cfg(unix)]
type Identity = (u64, u64);
#[cfg(not(unix))]
type Identity = PathBuf;

fn identity_of(path: &Path) -> Option<Identity> {
    #[cfg(unix)]
    {
        std::fs::metadata(path).ok().map(|m| metadata_identity(&m))
    }
    #[cfg(not(unix))]
    {
        path.canonicalize().ok()
    }
}

#[cfg(unix)]
fn metadata_identity(m: &std::fs::Metadata) -> Identity {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: larger than {} MiB, the most this program reads from one file", path.display(), limit >> 20)]
    TooLarge { path: PathBuf, limit: u64 },
}

/// Reads at most `limit` bytes of `path`, refusing a file that holds more,
/// and remembers the file as one of this process's inputs.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_limited(path, limit, true)
}

/// Reads at most `limit` bytes of `path` as [`read_bytes`] does, without
/// remembering it as an input: for a command's own output that it reads to
/// go on from or merge into, and then replaces (a fit's files, a ratings
/// file measurements are merged into).
pub fn read_own_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_limited(path, limit, false)
}

fn read_limited(path: &Path, limit: u64, input: bool) -> Result<Vec<u8>, ReadError> {
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    if input && let Some(identity) = identity_of(path) {
        remember(path, identity);
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

fn remember(path: &Path, identity: Identity) {
    let mut read = READ.lock().unwrap_or_else(|e| e.into_inner());
    // The newest path of an identity wins: an older one may be a deleted
    // file whose inode this one took.
    read.retain(|(_, id)| *id != identity);
    read.push((path.to_path_buf(), identity));
}

/// The file this process has read that `path` names, if any.
pub(crate) fn read_earlier(path: &Path) -> Option<PathBuf> {
    identity_of(path).and_then(|identity| input_with(&identity))
}

/// The input with this identity, if it is still there: an input since
/// deleted has freed its inode for another file, which is no input.
fn input_with(identity: &Identity) -> Option<PathBuf> {
    let read = READ.lock().unwrap_or_else(|e| e.into_inner());
    read.iter()
        .find(|(p, id)| id == identity && identity_of(p).as_ref() == Some(identity))
        .map(|(p, _)| p.clone())
}

/// Standard output and error, as [`std_stream_over_input`] names them.
pub const STDOUT: &str = "the standard output";
pub const STDERR: &str = "the standard error";

/// The file this process has read that standard output or standard error
/// writes to, if any (as `merge a.json >> a.json` or `2>> a.json` would),
/// with the stream's name.
pub fn std_stream_over_input() -> Option<(&'static str, PathBuf)> {
    [(STDOUT, 1), (STDERR, 2)]
        .into_iter()
        .find_map(|(name, fd)| {
            let identity = regular_file_on(fd)?;
            input_with(&identity).map(|input| (name, input))
        })
}

/// The identity of the regular file that file descriptor `fd` (1 or 2)
/// writes to; `None` for a terminal, pipe or device.
fn regular_file_on(fd: i32) -> Option<Identity> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let stream = match fd {
            1 => std::io::stdout().as_fd().try_clone_to_owned().ok()?,
            _ => std::io::stderr().as_fd().try_clone_to_owned().ok()?,
        };
        let meta = std::fs::File::from(stream).metadata().ok()?;
        meta.is_file().then(|| metadata_identity(&meta))
    }
    #[cfg(not(unix))]
    {
        let _ = fd;
        None
    }
}

/// Why an output cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("refusing to write {} over the input file {}", output.display(), input.display())]
    OverInput { output: PathBuf, input: PathBuf },
    #[error("cannot write {}: the folder {} does not exist", path.display(), folder.display())]
    NoFolder { path: PathBuf, folder: PathBuf },
    #[error("cannot write {}: it names a folder (it ends with a separator); give a file name", path.display())]
    FolderName { path: PathBuf },
    #[error("{} and {} are one place: give each output its own file", first.display(), second.display())]
    SameOutput { first: PathBuf, second: PathBuf },
    #[error("cannot write {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// `-` as an output: standard output, as the ecosystem's tools take it.
pub fn is_stdout_name(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Where an output lands: the file a symbolic link ends at (so the link is
/// written through, never replaced), else the path itself.
fn landing(path: &Path) -> PathBuf {
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return path.to_path_buf();
    }
    match std::fs::canonicalize(path) {
        Ok(target) => target,
        // A dangling link: where it points, from its own folder.
        Err(_) => std::fs::read_link(path).map_or_else(
            |_| path.to_path_buf(),
            |target| folder_of(path).join(target),
        ),
    }
}

/// The copy of the previous version kept beside a regular file's output.
fn backup_of(landing: &Path) -> PathBuf {
    let name = landing.file_name().unwrap_or_default().to_string_lossy();
    folder_of(landing).join(format!("{name}.bak"))
}

/// Every path an output writes: where it lands, and for a regular (or new)
/// file the `.bak` of its previous version; a device, pipe or `-` writes
/// only itself.
pub fn written_paths(path: &Path) -> Vec<PathBuf> {
    if is_stdout_name(path) {
        return vec![path.to_path_buf()];
    }
    let at = landing(path);
    match std::fs::metadata(&at) {
        Ok(m) if !m.is_file() => vec![at],
        _ if is_std_stream(&at) => vec![at],
        _ => {
            let bak = backup_of(&at);
            vec![at, bak]
        }
    }
}

/// Whether `path` is the regular file that standard output or error
/// writes to (`/dev/stdout` when it is redirected to a file): written in
/// place, appending, so the stream's own writes are not lost.
fn is_std_stream(path: &Path) -> bool {
    identity_of(path).is_some_and(|id| [1, 2].iter().any(|fd| regular_file_on(*fd) == Some(id)))
}

/// A path's lexical key for telling outputs apart before they exist:
/// absolute, with `.` and `..` taken out, its folder canonical.
fn place_key(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut clean = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    match (clean.parent(), clean.file_name()) {
        (Some(folder), Some(name)) => {
            std::fs::canonicalize(folder).map_or(clean.clone(), |folder| folder.join(name))
        }
        _ => clean,
    }
}

/// Checks, before any work, that every output of a command can be written
/// ([`check_output`]) and that no two of them, nor the `.bak` one keeps,
/// land in one place (`--out X --csv X`, `--out r.csv.bak --csv r.csv`).
pub fn check_outputs(paths: &[&Path]) -> Result<(), WriteError> {
    let mut places: Vec<(PathBuf, &Path)> = Vec::new();
    for path in paths {
        check_output(path)?;
        // Devices and pipes take any number of writers (`/dev/null` twice).
        let shared = std::fs::metadata(landing(path)).is_ok_and(|m| !m.is_file());
        if shared && !is_stdout_name(path) {
            continue;
        }
        for written in written_paths(path) {
            let key = place_key(&written);
            let identity = identity_of(&written);
            if let Some((_, first)) = places
                .iter()
                .find(|(k, _)| *k == key || (identity.is_some() && identity_of(k) == identity))
            {
                return Err(WriteError::SameOutput {
                    first: first.to_path_buf(),
                    second: path.to_path_buf(),
                });
            }
            places.push((key, path));
        }
    }
    Ok(())
}

/// Checks, before any work, that `path` can be written: neither it nor the
/// `.bak` it would keep is a file this process read, its folder exists and
/// takes a new file (or, for an existing device or pipe, it opens for
/// writing).
pub fn check_output(path: &Path) -> Result<(), WriteError> {
    if is_stdout_name(path) {
        return Ok(());
    }
    if path
        .as_os_str()
        .to_string_lossy()
        .ends_with(['/', std::path::MAIN_SEPARATOR])
    {
        return Err(WriteError::FolderName {
            path: path.to_path_buf(),
        });
    }
    for written in written_paths(path) {
        if let Some(input) = read_earlier(&written) {
            return Err(WriteError::OverInput {
                output: written,
                input,
            });
        }
    }
    let io = |source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    };
    let at = landing(path);
    match std::fs::metadata(&at) {
        Ok(m) if m.is_dir() => Err(io(std::io::Error::other("it is a folder"))),
        // A device or a pipe is written in place: it must open for writing.
        // (Opening a pipe for writing would wait for a reader: a pipe is
        // taken as it is.)
        Ok(m) if !m.is_file() => {
            if is_fifo(&m) {
                return Ok(());
            }
            std::fs::OpenOptions::new()
                .write(true)
                .open(&at)
                .map(drop)
                .map_err(io)
        }
        _ if is_std_stream(&at) => Ok(()),
        _ => {
            let folder = folder_of(&at);
            if !folder.is_dir() {
                return Err(WriteError::NoFolder {
                    path: path.to_path_buf(),
                    folder: folder.to_path_buf(),
                });
            }
            // A probe file proves the folder takes the temporary file that
            // the atomic write renames into place.
            let probe = temporary_name(&at, "probe");
            std::fs::File::create(&probe).map_err(io)?;
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
    }
}

#[cfg(unix)]
fn is_fifo(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    m.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::Metadata) -> bool {
    false
}

fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."))
}

/// A hidden name beside `path` for a file about to be renamed over it. Kept
/// short, so a file name near the system's limit (255 bytes) still has one:
/// the name is cut to fit, a hash of the whole keeping it unique.
fn temporary_name(path: &Path, what: &str) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().to_string());
    let suffix = format!(".{what}-{}", std::process::id());
    let room = 255usize.saturating_sub(1 + suffix.len() + 17);
    let short = if name.len() > room {
        let mut cut = room;
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        // Any stable hash of the whole name keeps two cut names apart.
        let mut hasher = std::hash::DefaultHasher::new();
        std::hash::Hash::hash(&name, &mut hasher);
        format!(
            "{}~{:016x}",
            &name[..cut],
            std::hash::Hasher::finish(&hasher)
        )
    } else {
        name
    };
    folder_of(path).join(format!(".{short}{suffix}"))
}

/// Writes `text` to `path` as [`OutputFile`] does, refusing a file this
/// process read.
pub fn write_output(path: &Path, text: &str) -> Result<(), WriteError> {
    for written in written_paths(path) {
        if let Some(input) = read_earlier(&written) {
            return Err(WriteError::OverInput {
                output: written,
                input,
            });
        }
    }
    save_atomically(path, text).map_err(|source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes one of a command's own working files (a fit's stages, in the
/// folder it made): atomically as [`write_output`] does, refusing a file
/// this process read as an input, but keeping no `.bak` (a stage's file is
/// written once, or replaced by the same work gone on with).
pub fn write_own(path: &Path, text: &str) -> Result<(), WriteError> {
    if let Some(input) = read_earlier(path) {
        return Err(WriteError::OverInput {
            output: path.to_path_buf(),
            input,
        });
    }
    let io = |source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut out = OutputFile::create(path).map_err(io)?;
    out.backup = false;
    out.write_all(text.as_bytes()).map_err(io)?;
    out.commit().map_err(io)
}

/// Writes `text` to `path` through an [`OutputFile`]: a regular (or new)
/// file atomically, keeping the previous version as `<name>.bak`; a device
/// or pipe in place.
pub fn save_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let mut out = OutputFile::create(path)?;
    out.write_all(text.as_bytes())?;
    out.commit()
}

/// A file being written. For a regular (or new) file the text goes to a
/// temporary file in the same folder, which [`OutputFile::commit`] flushes
/// and renames over the target, so a crash or a failed write never leaves a
/// half-written file and the last good version survives; the previous
/// version is kept as `<name>.bak`. A device or a pipe is written in place
/// (renaming over it would replace the device node with a regular file), a
/// symbolic link is written through (the file it ends at is replaced, the
/// link stays), `-` is standard output, and the regular file standard
/// output or error goes to (`/dev/stdout` redirected) is appended to.
/// Dropped without a commit, the temporary file is removed.
pub struct OutputFile {
    /// Where the text lands (a link's target).
    path: PathBuf,
    /// The temporary file to rename into place, when the target is a file.
    temporary: Option<PathBuf>,
    writer: std::io::BufWriter<std::fs::File>,
    /// Whether the version replaced is kept as `<name>.bak`.
    backup: bool,
}

impl OutputFile {
    pub fn create(path: &Path) -> std::io::Result<OutputFile> {
        if is_stdout_name(path) {
            return Ok(OutputFile {
                path: path.to_path_buf(),
                temporary: None,
                writer: std::io::BufWriter::new(stdout_file()?),
                backup: true,
            });
        }
        if path.file_name().is_none() {
            return Err(std::io::Error::other("no file name"));
        }
        let at = landing(path);
        let in_place = std::fs::metadata(&at).is_ok_and(|m| !m.is_file() && !m.is_dir());
        let (temporary, file) = if in_place {
            let file = std::fs::OpenOptions::new().write(true).open(&at)?;
            (None, file)
        } else if is_std_stream(&at) {
            let file = std::fs::OpenOptions::new().append(true).open(&at)?;
            (None, file)
        } else {
            let tmp = temporary_name(&at, "tmp");
            let file = std::fs::File::create(&tmp)?;
            (Some(tmp), file)
        };
        Ok(OutputFile {
            path: at,
            temporary,
            writer: std::io::BufWriter::new(file),
            backup: true,
        })
    }

    /// Flushes everything written and puts it in place.
    pub fn commit(mut self) -> std::io::Result<()> {
        self.writer.flush()?;
        let Some(tmp) = self.temporary.take() else {
            return Ok(());
        };
        let synced = self.writer.get_ref().sync_all();
        if let Err(e) = synced {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        if self.backup && self.path.is_file() {
            let _ = std::fs::copy(&self.path, backup_of(&self.path));
        }
        std::fs::rename(&tmp, &self.path).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
    }
}

/// Standard output as a file of its own (a duplicate of descriptor 1).
fn stdout_file() -> std::io::Result<std::fs::File> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        Ok(std::fs::File::from(
            std::io::stdout().as_fd().try_clone_to_owned()?,
        ))
    }
    #[cfg(not(unix))]
    Err(std::io::Error::other(
        "`-` (standard output) as an output needs Unix",
    ))
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if let Some(tmp) = self.temporary.take() {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_larger_than_the_limit_is_refused_naming_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.ron");
        std::fs::write(&path, vec![b' '; 3 << 20]).unwrap();
        let err = read_bytes(&path, 2 << 20).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge { limit, .. } if limit == 2 << 20));
        assert!(err.to_string().contains("larger than 2 MiB"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_device_is_read_only_up_to_the_limit() {
        let err = read_bytes(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge { .. }), "{err}");
    }

    #[test]
    fn a_file_read_is_protected_from_every_output() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input.ron");
        std::fs::write(&path, "()").unwrap();
        read_bytes(&path, MAX_INPUT_BYTES).unwrap();
        let other_name = dir.path().join(".").join("input.ron");
        assert!(matches!(
            check_output(&other_name),
            Err(WriteError::OverInput { .. })
        ));
        assert!(matches!(
            write_output(&other_name, "x"),
            Err(WriteError::OverInput { .. })
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "()");
    }

    #[test]
    fn an_output_in_a_missing_folder_is_refused_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("r.json");
        let err = check_output(&path).unwrap_err();
        assert!(matches!(err, WriteError::NoFolder { .. }), "{err}");
        assert!(err.to_string().contains("does not exist"), "{err}");
    }

    #[test]
    fn a_regular_file_is_replaced_atomically_keeping_a_backup() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_output(&path, "one").unwrap();
        write_output(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let bak = dir.path().join("out.txt.bak");
        assert_eq!(std::fs::read_to_string(bak).unwrap(), "one");
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_in_place_not_replaced() {
        write_output(Path::new("/dev/null"), "text").unwrap();
        let meta = std::fs::metadata("/dev/null").unwrap();
        assert!(!meta.is_file(), "/dev/null is still a device");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_failed_write_to_a_device_is_an_error() {
        let err = write_output(Path::new("/dev/full"), "text").unwrap_err();
        assert!(matches!(err, WriteError::Io { .. }), "{err}");
    }
}
