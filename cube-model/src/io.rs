//! The one bounded file reader every program and reader uses (plain `std` I/O, no network).
//!
//! [`read_file`] reads at most [`Limits::max_file_bytes`] bytes and refuses what is not a
//! regular file: a FIFO (reading one blocks until a writer comes, possibly forever), a character
//! or block device (`/dev/zero` never ends), a socket, a directory. [`ReadOptions`] lets a
//! caller accept FIFOs and devices on purpose (still bounded). [`read_to_limit`] bounds any
//! reader (standard input).
//!
//! On Unix the file is opened with `O_NONBLOCK`, so opening a FIFO never blocks, and its type is
//! checked on the opened descriptor (no race between the check and the read).

use std::fmt;
use std::io::Read;
use std::path::Path;

use crate::limits::{Limit, LimitExceeded, Limits};

/// How [`read_file_with`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Most bytes read; one more byte makes the read fail with [`ReadError::TooLarge`].
    pub max_bytes: u64,
    /// Accept FIFOs, character and block devices and sockets (still bounded by `max_bytes`).
    /// Directories are never read.
    pub allow_special_files: bool,
}

impl ReadOptions {
    /// Regular files only, at most `limits.max_file_bytes` bytes.
    pub fn new(limits: &Limits) -> Self {
        ReadOptions {
            max_bytes: limits.max_file_bytes,
            allow_special_files: false,
        }
    }

    /// Also accept FIFOs and devices (bounded all the same).
    #[must_use]
    pub fn allow_special_files(mut self, allow: bool) -> Self {
        self.allow_special_files = allow;
        self
    }
}

/// Why a file could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// The operating system refused (missing file, permission).
    Io {
        /// The path as given.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// Not a regular file (and not accepted by [`ReadOptions::allow_special_files`]).
    NotRegularFile {
        /// The path as given.
        path: String,
        /// `a directory`, `a FIFO`, `a character device`, `a block device`, `a socket`.
        file_type: &'static str,
    },
    /// Larger than the limit: nothing is returned (never a silent truncation).
    TooLarge(LimitExceeded),
    /// Binary data ([`looks_binary`]) in the first window of a text input read by
    /// [`read_text_to_limit`]: reading stopped there (`< /dev/urandom`, a pipe of NUL bytes).
    Binary {
        /// The label (`-` for standard input).
        path: String,
        /// Bytes read before stopping.
        read: u64,
    },
}

impl ReadError {
    /// Why, without the path (for callers that show the path already): `it is a FIFO, not a
    /// regular file ...`, `the file size exceeds the limit of ...`, the OS error.
    pub fn reason(&self) -> String {
        match self {
            ReadError::Io { source, .. } => format!("cannot read: {source}"),
            ReadError::NotRegularFile { file_type, .. } => format!(
                "cannot read: it is {file_type}, not a regular file (FIFOs, devices and \
                 directories are refused: they can block or never end)"
            ),
            ReadError::Binary { read, .. } => format!(
                "cannot read: binary data (NUL bytes or control characters in the first {read} \
                 bytes; reading stopped there), not a snapshot, describe text or log"
            ),
            ReadError::TooLarge(e) => {
                let mut e = e.clone();
                let full = e.to_string();
                e.subject.clear();
                let text = e.to_string();
                format!("cannot read: {}", text.strip_prefix(": ").unwrap_or(&full))
            }
        }
    }

    /// The limit hit, for [`ReadError::TooLarge`].
    pub fn limit_exceeded(&self) -> Option<&LimitExceeded> {
        match self {
            ReadError::TooLarge(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io { path, source } => write!(f, "cannot read {path}: {source}"),
            ReadError::NotRegularFile { path, file_type } => write!(
                f,
                "cannot read {path}: it is {file_type}, not a regular file (FIFOs, devices and \
                 directories are refused: they can block or never end)"
            ),
            ReadError::TooLarge(e) => write!(f, "cannot read {e}"),
            ReadError::Binary { path, read } => write!(
                f,
                "cannot read {path}: binary data (NUL bytes or control characters in the first \
                 {read} bytes; reading stopped there), not a snapshot, describe text or log"
            ),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io { source, .. } => Some(source),
            ReadError::TooLarge(e) => Some(e),
            ReadError::NotRegularFile { .. } | ReadError::Binary { .. } => None,
        }
    }
}

/// Reads a regular file of at most `limits.max_file_bytes` bytes.
///
/// # Errors
/// [`ReadError`]: unreadable, not a regular file, or too large.
pub fn read_file(path: &Path, limits: &Limits) -> Result<Vec<u8>, ReadError> {
    read_file_with(path, &ReadOptions::new(limits))
}

/// Reads a file as UTF-8 text (invalid sequences replaced by U+FFFD), bounded as
/// [`read_file`].
///
/// # Errors
/// As [`read_file`].
pub fn read_file_to_string(path: &Path, limits: &Limits) -> Result<String, ReadError> {
    let bytes = read_file(path, limits)?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Reads a file with explicit options.
///
/// # Errors
/// [`ReadError`]: unreadable, not a regular file (unless allowed), or too large.
pub fn read_file_with(path: &Path, opts: &ReadOptions) -> Result<Vec<u8>, ReadError> {
    let label = path.display().to_string();
    let io = |source| ReadError::Io {
        path: label.clone(),
        source,
    };
    let file = open_nonblocking(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    let ft = meta.file_type();
    let special = file_type_name(&ft);
    let file = match special {
        None => file,
        Some("a directory") => {
            return Err(ReadError::NotRegularFile {
                path: label,
                file_type: "a directory",
            });
        }
        Some(kind) if !opts.allow_special_files => {
            return Err(ReadError::NotRegularFile {
                path: label,
                file_type: kind,
            });
        }
        // Allowed on purpose: reopen blocking (a FIFO waits for its writer), bounded below.
        Some(_) => {
            drop(file);
            std::fs::File::open(path).map_err(io)?
        }
    };
    let hint = if special.is_none() { meta.len() } else { 0 };
    read_bounded(file, &label, opts.max_bytes, hint).map_err(|e| match e {
        ReadError::Io { source, .. } => ReadError::Io {
            path: label.clone(),
            source,
        },
        other => other,
    })
}

/// Opens a regular file of at most `limits.max_file_bytes` bytes for reading (for a reader
/// that reads it in pieces, such as [`crate::ClusterSnapshot::add_json_reader`]); returns it
/// with its length. Bound the reads with `Read::take` (the file may grow).
///
/// # Errors
/// [`ReadError`]: unreadable, not a regular file, or too large.
pub fn open_file(path: &Path, limits: &Limits) -> Result<(std::fs::File, u64), ReadError> {
    let label = path.display().to_string();
    let io = |source| ReadError::Io {
        path: label.clone(),
        source,
    };
    let file = open_nonblocking(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if let Some(kind) = file_type_name(&meta.file_type()) {
        return Err(ReadError::NotRegularFile {
            path: label,
            file_type: kind,
        });
    }
    if meta.len() > limits.max_file_bytes {
        return Err(ReadError::TooLarge(LimitExceeded {
            limit: Limit::FileBytes,
            max: limits.max_file_bytes,
            observed: Some(meta.len()),
            subject: label,
        }));
    }
    Ok((file, meta.len()))
}

/// Reads `reader` to its end, at most `max_bytes` bytes (standard input: `label` `-`).
///
/// # Errors
/// [`ReadError::Io`] or [`ReadError::TooLarge`] (nothing is returned past the limit).
pub fn read_to_limit(reader: impl Read, label: &str, max_bytes: u64) -> Result<Vec<u8>, ReadError> {
    read_bounded(reader, label, max_bytes, 0)
}

/// Bytes read at a time by [`read_text_to_limit`]; each such window is checked for binary data
/// as it comes.
pub const TEXT_WINDOW_BYTES: usize = 64 << 10;

/// Reads a text input (standard input) to its end, at most `max_bytes` bytes, checking each
/// window of [`TEXT_WINDOW_BYTES`] as it arrives: binary data ([`looks_binary`]; UTF-16 text
/// is text) stops the read at once with [`ReadError::Binary`], so `< /dev/zero` or a pipe of
/// random bytes costs one window, not `max_bytes` of memory. Text is converted from UTF-16 as
/// [`read_to_limit`] does.
///
/// ```
/// use cube_model::io::{read_text_to_limit, ReadError};
/// let zeros = std::io::repeat(0);
/// let e = read_text_to_limit(zeros, "-", 1 << 40).unwrap_err();
/// assert!(matches!(e, ReadError::Binary { read, .. } if read <= 64 << 10));
/// assert_eq!(read_text_to_limit(&b"kind: Pod\n"[..], "-", 100).unwrap(), b"kind: Pod\n");
/// ```
///
/// # Errors
/// [`ReadError::Io`], [`ReadError::TooLarge`] or [`ReadError::Binary`] (nothing is returned).
pub fn read_text_to_limit(
    reader: impl Read,
    label: &str,
    max_bytes: u64,
) -> Result<Vec<u8>, ReadError> {
    match read_text_spooled(reader, label, max_bytes, usize::MAX, &mut || {
        Err(std::io::Error::other("no spool"))
    })? {
        TextRead::Whole(bytes) => Ok(bytes),
        // unreachable: nothing is spooled under `usize::MAX` bytes in memory
        TextRead::Spooled { len, .. } => Err(ReadError::TooLarge(LimitExceeded {
            limit: Limit::FileBytes,
            max: max_bytes,
            observed: Some(len),
            subject: label.to_owned(),
        })),
    }
}

/// What [`read_text_spooled`] read.
#[derive(Debug)]
#[non_exhaustive]
pub enum TextRead {
    /// The whole input, in memory (UTF-16 converted to UTF-8, as [`read_text_to_limit`]).
    Whole(Vec<u8>),
    /// An input longer than the bytes kept in memory: written, as it was read, to the file the
    /// caller's spool gave, rewound to its start (its bytes as read: UTF-16 is converted by the
    /// reader that reads the file, [`read_to_limit`]).
    Spooled {
        /// The spool file, positioned at its first byte.
        file: std::fs::File,
        /// Bytes in it (at most the `max_bytes` of the read).
        len: u64,
    },
}

/// Reads a text input (standard input from a pipe) as [`read_text_to_limit`] does, the limit
/// applied to every window as it arrives, but holds at most about `in_memory` bytes of it in
/// memory: past that, what was read and the rest are written to the file `spool` returns (the
/// caller creates it: an unlinked temporary file), so a pipe of gigabytes costs disk, never
/// gigabytes of memory, and is then read like a file of that size (a large JSON List streamed).
/// A stream longer than `max_bytes` stops one byte past it with [`ReadError::TooLarge`];
/// binary data stops at its first window ([`ReadError::Binary`]).
///
/// ```
/// use cube_model::io::{read_text_spooled, ReadError, TextRead};
/// let mut spool = || tempfile_for_doc();
/// # fn tempfile_for_doc() -> std::io::Result<std::fs::File> {
/// #     let p = std::env::temp_dir().join(format!("cube-doc-spool-{}", std::process::id()));
/// #     let f = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(true).open(&p)?;
/// #     let _ = std::fs::remove_file(&p);
/// #     Ok(f)
/// # }
/// let endless = std::io::repeat(b'y');
/// let e = read_text_spooled(endless, "-", 1 << 20, 64 << 10, &mut spool).unwrap_err();
/// assert_eq!(e.limit_exceeded().map(|l| l.max), Some(1 << 20));
/// let long = "kind: Pod\n".repeat(100_000);
/// let TextRead::Spooled { len, .. } =
///     read_text_spooled(long.as_bytes(), "-", 1 << 30, 64 << 10, &mut spool).unwrap()
/// else { panic!("kept in memory") };
/// assert_eq!(len, long.len() as u64);
/// ```
///
/// # Errors
/// [`ReadError::Io`] (of the reader or the spool), [`ReadError::TooLarge`] or
/// [`ReadError::Binary`] (nothing is returned; the spool is dropped).
pub fn read_text_spooled(
    reader: impl Read,
    label: &str,
    max_bytes: u64,
    in_memory: usize,
    spool: &mut dyn FnMut() -> std::io::Result<std::fs::File>,
) -> Result<TextRead, ReadError> {
    use std::io::{Seek as _, Write as _};
    let io = |source| ReadError::Io {
        path: label.to_owned(),
        source,
    };
    let mut reader = reader.take(max_bytes.saturating_add(1));
    let mut buf: Vec<u8> = Vec::new();
    let mut utf16 = None;
    // bytes already written to the spool, and the spool once the input outgrew `in_memory`
    let mut spooled: Option<(std::fs::File, u64)> = None;
    loop {
        let start = buf.len();
        let mut window = 0usize;
        // one window (short reads of a pipe are gathered up to it)
        while window < TEXT_WINDOW_BYTES {
            let want = TEXT_WINDOW_BYTES - window;
            buf.resize(start + window + want, 0);
            match reader.read(&mut buf[start + window..]) {
                Ok(0) => break,
                Ok(n) => window += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(source) => return Err(io(source)),
            }
        }
        buf.truncate(start + window);
        let utf16 =
            *utf16.get_or_insert_with(|| utf16_to_utf8(&buf[..buf.len().min(16)]).is_some());
        let total = spooled.as_ref().map_or(0, |(_, n)| *n) + buf.len() as u64;
        if window > 0 && !utf16 && looks_binary(&buf[start..]) {
            return Err(ReadError::Binary {
                path: label.to_owned(),
                read: total,
            });
        }
        if total > max_bytes {
            return Err(ReadError::TooLarge(LimitExceeded {
                limit: Limit::FileBytes,
                max: max_bytes,
                observed: Some(total),
                subject: label.to_owned(),
            }));
        }
        if spooled.is_none() && buf.len() > in_memory {
            spooled = Some((spool().map_err(io)?, 0));
        }
        if let Some((file, written)) = &mut spooled {
            file.write_all(&buf).map_err(io)?;
            *written += buf.len() as u64;
            buf.clear();
            // keep one window's room, not the memory the input filled before it was spooled
            buf.shrink_to(TEXT_WINDOW_BYTES);
        }
        if window < TEXT_WINDOW_BYTES {
            break;
        }
    }
    if let Some((mut file, len)) = spooled {
        file.flush().map_err(io)?;
        file.rewind().map_err(io)?;
        return Ok(TextRead::Spooled { file, len });
    }
    Ok(TextRead::Whole(match utf16_to_utf8(&buf) {
        Some((utf8, _)) => utf8,
        None => buf,
    }))
}

/// Binary data: invalid UTF-8 or control characters other than tab, CR and LF (NUL included)
/// in more than one in twenty characters of the first 4 KiB. A NUL byte or two in a text (a
/// damaged dump, a log with a torn write) is damage the readers report where it is; binary data
/// has many. A multi-byte character cut at either end of the window is tolerated; an ESC that
/// opens a terminal sequence (colours) is text.
pub fn looks_binary(bytes: &[u8]) -> bool {
    let head = bytes.get(..4096).unwrap_or(bytes);
    let text = String::from_utf8_lossy(head);
    let total = text.chars().count().max(1);
    // an ESC that opens a terminal sequence (CSI `ESC [`, OSC `ESC ]`, charset `ESC (`): the
    // colours of a terminal copy, text (a short coloured paste is mostly escapes)
    let mut bad = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let escape = c == '\u{1b}' && matches!(chars.peek(), Some('[' | ']' | '('));
        if !escape && (c == '\u{fffd}' || (c.is_control() && !matches!(c, '\n' | '\r' | '\t'))) {
            bad += 1;
        }
    }
    bad * 20 > total || (bad > 1 && std::str::from_utf8(head).is_err() && bad * 100 > total)
}

/// What standard input is when it is a file that must not be read as an input: `a character
/// device` other than a terminal (`< /dev/zero`, `< /dev/urandom` never end), `a block device`,
/// `a directory`. `None` for a pipe, a regular file, a socket, a terminal (a paste ended with
/// Ctrl-D), or when its type cannot be told. A program refuses `--snapshot -` then as it
/// refuses `--snapshot /dev/zero` ([`ReadError::NotRegularFile`]).
pub fn stdin_special_kind() -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::io::IsTerminal;
        use std::os::fd::AsFd;
        use std::os::unix::fs::FileTypeExt;
        let stdin = std::io::stdin();
        let fd = stdin.as_fd().try_clone_to_owned().ok()?;
        let ft = std::fs::File::from(fd).metadata().ok()?.file_type();
        if ft.is_char_device() && !stdin.is_terminal() {
            return Some("a character device");
        }
        if ft.is_block_device() {
            return Some("a block device");
        }
        if ft.is_dir() {
            return Some("a directory");
        }
    }
    None
}

/// Standard input when it is a regular file (`program --snapshot - < dump.json`): the file
/// (a duplicate of the descriptor, at stdin's current position) and the bytes left in it from
/// there. A program reads it as it reads a named file: its size is known before any byte is
/// read, so a file over the limit is refused at once ([`ReadError::TooLarge`]) and a large
/// JSON List is streamed, never held whole. `None` for a pipe, a terminal, a device, or when
/// the type cannot be told.
pub fn stdin_file() -> Option<(std::fs::File, u64)> {
    #[cfg(unix)]
    {
        use std::io::Seek as _;
        use std::os::fd::AsFd;
        let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
        let mut file = std::fs::File::from(fd);
        let meta = file.metadata().ok()?;
        if !meta.file_type().is_file() {
            return None;
        }
        let pos = file.stream_position().ok()?;
        return Some((file, meta.len().saturating_sub(pos)));
    }
    #[allow(unreachable_code)]
    None
}

/// [`ReadError::TooLarge`] for an input of `len` bytes (known before reading: a regular file)
/// over `max_bytes`; `None` when it fits.
pub fn check_len(label: &str, len: u64, max_bytes: u64) -> Option<ReadError> {
    (len > max_bytes).then(|| {
        ReadError::TooLarge(LimitExceeded {
            limit: Limit::FileBytes,
            max: max_bytes,
            observed: Some(len),
            subject: label.to_owned(),
        })
    })
}

/// Reads standard input as a text input: refused at once when it is a device or a directory
/// ([`stdin_special_kind`]) or a regular file larger than `limits.max_file_bytes`
/// ([`stdin_file`]: nothing is read), else [`read_text_to_limit`] with `limits.max_file_bytes`.
///
/// # Errors
/// [`ReadError::NotRegularFile`] (label `-`), or those of [`read_text_to_limit`].
pub fn read_stdin_text(reader: impl Read, limits: &Limits) -> Result<Vec<u8>, ReadError> {
    if let Some(kind) = stdin_special_kind() {
        return Err(ReadError::NotRegularFile {
            path: "-".to_owned(),
            file_type: kind,
        });
    }
    // `< file`: its size is known before reading; a file over the limit is refused unread
    if let Some(e) = stdin_file().and_then(|(_, len)| check_len("-", len, limits.max_file_bytes)) {
        return Err(e);
    }
    read_text_to_limit(reader, "-", limits.max_file_bytes)
}

fn read_bounded(
    reader: impl Read,
    label: &str,
    max_bytes: u64,
    size_hint: u64,
) -> Result<Vec<u8>, ReadError> {
    let too_large = |seen: u64| {
        ReadError::TooLarge(LimitExceeded {
            limit: Limit::FileBytes,
            max: max_bytes,
            observed: Some(seen),
            subject: label.to_owned(),
        })
    };
    if size_hint > max_bytes {
        return Err(too_large(size_hint));
    }
    // Reserve what the file says it holds (bounded), never more than the limit.
    let cap = usize::try_from(size_hint.min(max_bytes)).unwrap_or(0);
    let mut buf = Vec::new();
    if buf.try_reserve_exact(cap.saturating_add(1)).is_err() {
        buf = Vec::new();
    }
    reader
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|source| ReadError::Io {
            path: label.to_owned(),
            source,
        })?;
    let read = buf.len() as u64;
    if read > max_bytes {
        return Err(too_large(read));
    }
    Ok(match utf16_to_utf8(&buf) {
        Some((utf8, _)) => utf8,
        None => buf,
    })
}

/// A UTF-16 byte order, as [`utf16_to_utf8`] found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Utf16 {
    /// Little-endian (`FF FE` byte-order mark; Windows PowerShell 5's `>` and `Out-File`).
    Le,
    /// Big-endian (`FE FF` byte-order mark).
    Be,
}

/// UTF-16 text converted to UTF-8: a text that starts with a UTF-16 byte-order mark, or without
/// one whose first four characters are ASCII text each paired with a NUL byte (`k\0i\0n\0d\0`).
/// Windows PowerShell 5 writes `kubectl get nodes -o yaml > nodes.yaml` as UTF-16LE with a
/// byte-order mark, and such files are pasted and uploaded as they are. The mark is dropped;
/// unpaired surrogates and an odd last byte become U+FFFD. `None` for anything else (UTF-8,
/// binary data), which is left as it is. Every read of [`read_file`] and [`read_to_limit`]
/// goes through this, so every program reads such a file as text.
///
/// ```
/// use cube_model::io::{utf16_to_utf8, Utf16};
/// let le: Vec<u8> = [0xFF, 0xFE].into_iter()
///     .chain("kind: Pod\r\n".encode_utf16().flat_map(u16::to_le_bytes)).collect();
/// assert_eq!(utf16_to_utf8(&le), Some((b"kind: Pod\r\n".to_vec(), Utf16::Le)));
/// assert_eq!(utf16_to_utf8(b"kind: Pod\n"), None);
/// ```
pub fn utf16_to_utf8(bytes: &[u8]) -> Option<(Vec<u8>, Utf16)> {
    let text_byte = |c: u8| matches!(c, b'\t' | b'\n' | b'\r' | 0x20..=0x7e);
    let (order, body) = match bytes {
        [0xFF, 0xFE, rest @ ..] if !rest.starts_with(&[0, 0]) => (Utf16::Le, rest),
        [0xFE, 0xFF, rest @ ..] => (Utf16::Be, rest),
        [a, 0, b, 0, c, 0, d, 0, ..] if [*a, *b, *c, *d].iter().all(|x| text_byte(*x)) => {
            (Utf16::Le, bytes)
        }
        [0, a, 0, b, 0, c, 0, d, ..] if [*a, *b, *c, *d].iter().all(|x| text_byte(*x)) => {
            (Utf16::Be, bytes)
        }
        _ => return None,
    };
    let units = body.chunks_exact(2).map(|p| match order {
        Utf16::Le => u16::from_le_bytes([p[0], p[1]]),
        Utf16::Be => u16::from_be_bytes([p[0], p[1]]),
    });
    let mut out = String::with_capacity(body.len() / 2 + 3);
    out.extend(char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)));
    if body.len() % 2 == 1 {
        out.push(char::REPLACEMENT_CHARACTER);
    }
    Some((out.into_bytes(), order))
}

fn file_type_name(ft: &std::fs::FileType) -> Option<&'static str> {
    if ft.is_file() {
        return None;
    }
    if ft.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return Some("a FIFO");
        }
        if ft.is_char_device() {
            return Some("a character device");
        }
        if ft.is_block_device() {
            return Some("a block device");
        }
        if ft.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// Opens for reading without blocking on a FIFO that has no writer.
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(O_NONBLOCK);
    }
    opts.open(path)
}

#[cfg(any(target_os = "linux", target_os = "android"))]
const O_NONBLOCK: i32 = 0o4000;
#[cfg(all(
    unix,
    any(
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    )
))]
const O_NONBLOCK: i32 = 0x0004;
#[cfg(all(
    unix,
    not(any(
        target_os = "linux",
        target_os = "android",
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    ))
))]
const O_NONBLOCK: i32 = 0;

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("cube-model-io-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn reads_regular_files_up_to_the_limit_and_no_further() {
        let p = dir().join("ten.txt");
        std::fs::write(&p, b"0123456789").unwrap();
        let mut limits = Limits::default();
        assert_eq!(read_file(&p, &limits).unwrap(), b"0123456789");
        limits.max_file_bytes = 10;
        assert_eq!(read_file(&p, &limits).unwrap().len(), 10);
        limits.max_file_bytes = 9;
        let e = read_file(&p, &limits).unwrap_err();
        let t = e.to_string();
        assert!(e.limit_exceeded().is_some(), "{t}");
        assert!(
            t.contains("ten.txt: the file size exceeds the limit of 9 bytes"),
            "{t}"
        );
        assert!(t.contains("--limit file-bytes=N"), "{t}");
    }

    #[test]
    fn refuses_directories_and_missing_files() {
        let e = read_file(&dir(), &Limits::default()).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        let e = read_file(Path::new("/nonexistent/x"), &Limits::default()).unwrap_err();
        assert!(
            e.to_string().starts_with("cannot read /nonexistent/x: "),
            "{e}"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn refuses_devices_unless_asked_and_bounds_them_then() {
        let limits = Limits::default();
        let e = read_file(Path::new("/dev/zero"), &limits).unwrap_err();
        assert!(e.to_string().contains("a character device"), "{e}");
        let opts = ReadOptions {
            max_bytes: 4096,
            allow_special_files: true,
        };
        let e = read_file_with(Path::new("/dev/zero"), &opts).unwrap_err();
        assert!(e.limit_exceeded().is_some(), "{e}");
    }

    /// Windows PowerShell 5 writes `kubectl ... > x.yaml` as UTF-16LE with a byte-order mark;
    /// other tools write UTF-16BE or no mark. Every form reads as the same UTF-8 text.
    #[test]
    fn utf16_files_read_as_utf8_text() {
        let text = "apiVersion: v1\r\nkind: Node\r\nmetadata: {name: gpu-ü-1}\r\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for (name, bytes) in [
            ("le-bom", [&[0xFF, 0xFE][..], &le].concat()),
            ("be-bom", [&[0xFE, 0xFF][..], &be].concat()),
            ("le", le.clone()),
            ("be", be.clone()),
        ] {
            let p = dir().join(format!("utf16-{name}.yaml"));
            std::fs::write(&p, &bytes).unwrap();
            let read = read_file(&p, &Limits::default()).unwrap();
            assert_eq!(String::from_utf8(read).unwrap(), text, "{name}");
            assert_eq!(
                read_to_limit(&bytes[..], "-", 1 << 20).unwrap(),
                text.as_bytes(),
                "{name}"
            );
        }
        // a broken surrogate and an odd last byte are replaced, nothing else lost
        let bad = [0xFF, 0xFE, b'a', 0, 0x00, 0xD8, b'b', 0, b'c'];
        assert_eq!(
            utf16_to_utf8(&bad).unwrap().0,
            "a\u{fffd}b\u{fffd}".as_bytes()
        );
        // UTF-8 (with or without its mark), binary data and DER stay as they are
        for other in [
            &b"\xEF\xBB\xBFkind: Pod\n"[..],
            b"kind: Pod\n",
            b"\x30\x82\x01\x0a\x02\x82",
            b"\x7fELF\x02\x01\x01\x00\x00\x00",
            b"",
        ] {
            assert_eq!(utf16_to_utf8(other), None, "{other:?}");
        }
    }

    #[test]
    fn stdin_like_readers_are_bounded() {
        let endless = std::io::repeat(b'x');
        let e = read_to_limit(endless, "-", 1000).unwrap_err();
        assert_eq!(e.limit_exceeded().map(|l| l.max), Some(1000));
        assert_eq!(read_to_limit(&b"abc"[..], "-", 3).unwrap(), b"abc");
    }

    /// A short paste copied with its terminal colours is mostly escape sequences, and text.
    #[test]
    fn a_short_coloured_paste_is_text() {
        assert!(!looks_binary(
            b"\x1b[0;31m    State: Waiting\x1b[0m\n\x1b[1m      Reason: OOMKilled\x1b[22m\n"
        ));
        assert!(looks_binary(b"\x1b\x01\x02\x03\x04abc\x05\x06"));
    }

    /// A text input read from a pipe stops at the first window of binary data: `< /dev/zero`
    /// costs one window whatever the file limit, binary data after a megabyte of text stops
    /// within a window of where it starts; endless text stops at the file limit; a stray NUL
    /// in text and UTF-16 text are read whole.
    #[test]
    fn text_inputs_stop_at_the_first_binary_window() {
        let e = read_text_to_limit(std::io::repeat(0), "-", 4 << 30).unwrap_err();
        let ReadError::Binary { read, .. } = e else {
            panic!("{e}")
        };
        assert!(read <= TEXT_WINDOW_BYTES as u64, "{read}");
        assert!(e_reason(read).contains("binary data"));
        let text_then_zeros = std::io::Read::chain(
            std::io::Read::take(std::io::repeat(b'y'), 1 << 20),
            std::io::repeat(0),
        );
        let e = read_text_to_limit(text_then_zeros, "-", 4 << 30).unwrap_err();
        let ReadError::Binary { read, .. } = e else {
            panic!("{e}")
        };
        assert!(read <= (1 << 20) + 2 * TEXT_WINDOW_BYTES as u64, "{read}");
        let e = read_text_to_limit(std::io::repeat(b'y'), "-", 300_000).unwrap_err();
        assert_eq!(e.limit_exceeded().map(|l| l.max), Some(300_000));
        let mut torn = b"kind: Pod\n".repeat(10_000);
        torn[5000] = 0;
        assert_eq!(read_text_to_limit(&torn[..], "-", 1 << 20).unwrap(), torn);
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "kind: Pod\n"
                    .repeat(20_000)
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        assert_eq!(
            read_text_to_limit(&utf16[..], "-", 1 << 20).unwrap(),
            "kind: Pod\n".repeat(20_000).into_bytes()
        );
    }

    fn e_reason(read: u64) -> String {
        ReadError::Binary {
            path: "-".into(),
            read,
        }
        .reason()
    }
}
