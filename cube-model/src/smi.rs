//! GPU listings pasted next to a node: `nvidia-smi` and `rocm-smi` / `amd-smi` output.
//!
//! The seed story of issue 8 is "`nvidia-smi` shows 4 GPUs, `kubectl describe node` shows
//! none": people paste both in one message. [`find_tables`] recognises the listings in a text,
//! [`attach`] records each on the node it belongs to as an annotation
//! ([`NVIDIA_SMI_ANNOTATION`], [`ROCM_SMI_ANNOTATION`], in the `cube-model.invalid/` namespace
//! no real object uses), and [`crate::gpu`] reads that annotation as a
//! [`crate::gpu::GpuSourceKind::ToolOutput`] source.
//!
//! Shapes read (what the tools print):
//! - `nvidia-smi`: the banner `NVIDIA-SMI <version>  Driver Version: <v>  CUDA Version: <v>`
//!   and the device rows `|   0  Tesla P4   Off | 00000000:86:00.0 Off | ... |` (every layout
//!   since the 2010s: the first cell is index, name and persistence mode, the second starts
//!   with the PCI bus id); `nvidia-smi -L`: `GPU 0: Tesla P4 (UUID: GPU-...)`.
//! - `rocm-smi`: the concise table under `ROCm System Management Interface` (a header row
//!   starting with `GPU` or `Device`, then one row per device starting with its index, in
//!   ROCm 6 followed by an indented product-name line) and the per-device lines of the other
//!   queries (`GPU[0]  : Card series:  ...`); `amd-smi list`: `GPU: 0` blocks.
//!
//! A listing belongs to the node named by the shell prompt in front of it (`root@node-02:~#
//! nvidia-smi`, `[root@node-02 ~]#`, matched to the node name or its first DNS label); without
//! a usable prompt, to the only node of the text. With several nodes and no prompt it is not
//! attached (the text does not say whose GPUs they are).

use crate::node::GpuVendor;
use crate::objects::Node;

/// Annotation holding a pasted `nvidia-smi` listing's summary (`2 GPU(s): Tesla P4 x2; driver
/// 535.183.01`).
pub const NVIDIA_SMI_ANNOTATION: &str = "cube-model.invalid/nvidia-smi";
/// Annotation holding a pasted `rocm-smi` / `amd-smi` listing's summary.
pub const ROCM_SMI_ANNOTATION: &str = "cube-model.invalid/rocm-smi";

/// Annotation holding a pasted `lspci` listing's NVIDIA GPUs.
pub const LSPCI_NVIDIA_ANNOTATION: &str = "cube-model.invalid/lspci-nvidia";
/// Annotation holding a pasted `lspci` listing's AMD GPUs and accelerators.
pub const LSPCI_AMD_ANNOTATION: &str = "cube-model.invalid/lspci-amd";
/// Annotation holding a pasted `lspci` listing's Intel data-center GPUs.
pub const LSPCI_INTEL_ANNOTATION: &str = "cube-model.invalid/lspci-intel";

/// At most this many device rows are read from one listing (larger machines have 16).
const MAX_DEVICES: usize = 64;

/// Which tool printed a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SmiTool {
    /// `nvidia-smi`.
    NvidiaSmi,
    /// `rocm-smi` or `amd-smi`.
    RocmSmi,
    /// `lspci` (or `lspci -nn`, `-v`, `-k`) rows of one vendor's GPUs or accelerators
    /// ([`crate::hostfacts`]).
    Lspci(GpuVendor),
}

impl SmiTool {
    /// `nvidia-smi` / `rocm-smi`.
    pub fn as_str(self) -> &'static str {
        match self {
            SmiTool::NvidiaSmi => "nvidia-smi",
            SmiTool::RocmSmi => "rocm-smi",
            SmiTool::Lspci(_) => "lspci",
        }
    }
    /// The vendor whose GPUs the tool lists.
    pub fn vendor(self) -> GpuVendor {
        match self {
            SmiTool::NvidiaSmi => GpuVendor::Nvidia,
            SmiTool::RocmSmi => GpuVendor::Amd,
            SmiTool::Lspci(v) => v,
        }
    }
    /// The annotation [`attach`] writes.
    pub fn annotation(self) -> &'static str {
        match self {
            SmiTool::NvidiaSmi => NVIDIA_SMI_ANNOTATION,
            SmiTool::RocmSmi => ROCM_SMI_ANNOTATION,
            SmiTool::Lspci(GpuVendor::Nvidia) => LSPCI_NVIDIA_ANNOTATION,
            SmiTool::Lspci(GpuVendor::Amd) => LSPCI_AMD_ANNOTATION,
            SmiTool::Lspci(GpuVendor::Intel) => LSPCI_INTEL_ANNOTATION,
        }
    }
}

/// One GPU listing found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmiListing {
    /// The tool.
    pub tool: SmiTool,
    /// One entry per device (its product name, empty when the listing shows none).
    pub devices: Vec<String>,
    /// The driver version of the `nvidia-smi` banner.
    pub driver: Option<String>,
    /// The host of the shell prompt in front of the listing.
    pub host: Option<String>,
    /// 1-based line of the listing's first line.
    pub line: usize,
}

impl SmiListing {
    /// `2 GPU(s): Tesla P4 x2; driver 535.183.01` (names grouped in first-seen order).
    pub fn summary(&self) -> String {
        let mut names: Vec<(&str, usize)> = Vec::new();
        for d in self.devices.iter().filter(|d| !d.is_empty()) {
            match names.iter_mut().find(|(n, _)| *n == d.as_str()) {
                Some((_, c)) => *c += 1,
                None => names.push((d.as_str(), 1)),
            }
        }
        let mut s = format!("{} GPU(s)", self.devices.len());
        if !names.is_empty() {
            let list: Vec<String> = names
                .iter()
                .map(|(n, c)| {
                    if *c > 1 {
                        format!("{n} x{c}")
                    } else {
                        (*n).to_owned()
                    }
                })
                .collect();
            s.push_str(&format!(": {}", list.join(", ")));
        }
        if let Some(d) = &self.driver {
            s.push_str(&format!("; driver {d}"));
        }
        s
    }
}

/// The vendor whose tool wrote annotation `key` ([`NVIDIA_SMI_ANNOTATION`],
/// [`ROCM_SMI_ANNOTATION`]); `None` for any other key.
pub fn tool_output_vendor(key: &str) -> Option<GpuVendor> {
    match key {
        NVIDIA_SMI_ANNOTATION | LSPCI_NVIDIA_ANNOTATION => Some(GpuVendor::Nvidia),
        ROCM_SMI_ANNOTATION | LSPCI_AMD_ANNOTATION => Some(GpuVendor::Amd),
        LSPCI_INTEL_ANNOTATION => Some(GpuVendor::Intel),
        _ => None,
    }
}

/// The tool name of annotation `key` (`nvidia-smi`), or the key itself.
pub fn tool_name(key: &str) -> &str {
    key.strip_prefix("cube-model.invalid/").unwrap_or(key)
}

/// The host of a shell prompt on `line` (`root@node-02:~# ...`, `[root@node-02 ~]# ...`,
/// `user@node-02 % ...`), if the line is one.
pub fn prompt_host(line: &str) -> Option<String> {
    let t = line.trim_start().trim_start_matches('[');
    let (user, rest) = t.split_once('@')?;
    if user.is_empty() || user.contains(char::is_whitespace) {
        return None;
    }
    let host: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        .collect();
    let after = &rest[host.len()..];
    let prompt_end = after.find(['#', '$', '%', '>'])?;
    // `:~`, ` ~]`, `:/root` may sit between the host and the prompt character
    if host.is_empty() || !after.starts_with([':', ' ', ']', '#', '$', '%', '>']) || prompt_end > 80
    {
        return None;
    }
    Some(host)
}

/// True when `text` may hold a GPU listing ([`find_tables`] is worth running): an `SMI`
/// banner, a `GPU` word, or an `lspci` row of a display, 3D or accelerator device.
pub fn might_list_gpus(text: &str) -> bool {
    text.contains("SMI")
        || text.contains("GPU")
        || text.contains("controller")
        || text.contains("accelerators")
}

/// Every GPU listing in `text`, in order.
pub fn find_tables(text: &str) -> Vec<SmiListing> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let found = if line.contains("NVIDIA-SMI") && line.contains("Driver Version") {
            Some(nvidia_table(&lines, i))
        } else if nvidia_list_row(line).is_some() {
            Some(nvidia_list(&lines, i))
        } else if line.contains("ROCm System Management Interface") {
            Some(rocm_table(&lines, i))
        } else if rocm_device_line(line).is_some() || amd_smi_gpu(line).is_some() {
            Some(rocm_lines(&lines, i))
        } else {
            crate::hostfacts::lspci_gpu(line).map(|vendor| lspci_rows(&lines, i, vendor))
        };
        match found {
            Some((devices, driver, end, tool)) => {
                if !devices.is_empty() {
                    out.push(SmiListing {
                        tool,
                        devices,
                        driver,
                        host: host_before(&lines, i),
                        line: i + 1,
                    });
                }
                i = end.max(i + 1);
            }
            None => i += 1,
        }
    }
    out
}

type Found = (Vec<String>, Option<String>, usize, SmiTool);

/// The prompt host of the command line in front of line `start` (up to three lines back,
/// skipping blank lines and markdown fences).
fn host_before(lines: &[&str], start: usize) -> Option<String> {
    lines[..start]
        .iter()
        .rev()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("```"))
        .take(3)
        .find_map(|l| {
            let lower = l.to_ascii_lowercase();
            if lower.contains("smi") || lower.contains("lspci") {
                prompt_host(l)
            } else {
                None
            }
        })
}

/// `lspci` rows of `vendor`'s GPUs from line `start`: the GPU rows of that vendor among the
/// listing's other rows and `-v` / `-k` detail lines, up to a blank line or a line that is
/// neither.
fn lspci_rows(lines: &[&str], start: usize, vendor: GpuVendor) -> Found {
    let mut devices = Vec::new();
    let mut i = start;
    while i < lines.len() && devices.len() < MAX_DEVICES {
        let raw = lines[i];
        let t = raw.trim();
        if t.is_empty() {
            break;
        }
        match crate::hostfacts::lspci_gpu(t) {
            Some(v) if v == vendor => {
                let (_, rest) = t.split_once(": ").unwrap_or(("", t));
                let name = match rest.rfind(" (rev ") {
                    Some(p) => &rest[..p],
                    None => rest,
                };
                devices.push(name.trim().to_owned());
            }
            Some(_) => {}
            // another device's row, or a detail line (`-v`, `-k`) indented under a row
            None if crate::hostfacts::is_lspci_row(t) || raw.starts_with([' ', '\t']) => {}
            None => break,
        }
        i += 1;
    }
    (devices, None, i, SmiTool::Lspci(vendor))
}

/// `nvidia-smi` default table from its banner line `start`.
fn nvidia_table(lines: &[&str], start: usize) -> Found {
    let driver = lines[start]
        .split("Driver Version:")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .map(str::to_owned);
    let mut devices = Vec::new();
    let mut i = start + 1;
    while i < lines.len() && devices.len() < MAX_DEVICES {
        let t = lines[i].trim();
        if t.is_empty() || t.contains("Processes:") {
            break;
        }
        if let Some(name) = nvidia_device_row(t) {
            devices.push(name);
        }
        i += 1;
    }
    (devices, driver, i, SmiTool::NvidiaSmi)
}

/// The product name of a device row (`|   0  Tesla P4   Off | 00000000:86:00.0 Off | ...`).
fn nvidia_device_row(t: &str) -> Option<String> {
    let mut cells = t.strip_prefix('|')?.split('|');
    let first = cells.next()?.trim();
    let second = cells.next()?.trim();
    if !is_bus_id(second.split_whitespace().next()?) {
        return None;
    }
    let (index, rest) = first.split_once(char::is_whitespace)?;
    if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rest = rest.trim();
    let name = rest
        .strip_suffix("Off")
        .or_else(|| rest.strip_suffix("On"))
        .unwrap_or(rest)
        .trim();
    Some(name.to_owned())
}

/// `00000000:86:00.0` (domain, bus, device.function; the domain has 4 or 8 hex digits).
fn is_bus_id(s: &str) -> bool {
    let parts: Vec<&str> = s.split(':').collect();
    let hex = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_hexdigit());
    match parts.as_slice() {
        [dom, bus, devfn] => {
            hex(dom)
                && (dom.len() == 4 || dom.len() == 8)
                && hex(bus)
                && devfn.split_once('.').is_some_and(|(d, f)| hex(d) && hex(f))
        }
        _ => false,
    }
}

/// `GPU 0: Tesla P4 (UUID: GPU-...)` of `nvidia-smi -L`: the product name.
fn nvidia_list_row(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("GPU ")?;
    let (index, rest) = rest.split_once(": ")?;
    if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (name, uuid) = rest.split_once(" (UUID: ")?;
    uuid.starts_with("GPU-").then(|| name.trim().to_owned())
}

fn nvidia_list(lines: &[&str], start: usize) -> Found {
    let mut devices = Vec::new();
    let mut i = start;
    while i < lines.len() && devices.len() < MAX_DEVICES {
        if let Some(name) = nvidia_list_row(lines[i]) {
            devices.push(name);
        } else if !lines[i].trim_start().starts_with("MIG ") {
            break;
        }
        i += 1;
    }
    (devices, None, i, SmiTool::NvidiaSmi)
}

/// The `rocm-smi` concise table from its title line `start`.
fn rocm_table(lines: &[&str], start: usize) -> Found {
    let mut devices: Vec<String> = Vec::new();
    let mut header = false;
    let mut i = start + 1;
    while i < lines.len() && devices.len() < MAX_DEVICES {
        let raw = lines[i];
        let t = raw.trim();
        if t.contains("End of ROCm SMI Log") {
            i += 1;
            break;
        }
        if !header {
            if (t.starts_with("GPU") || t.starts_with("Device"))
                && (t.contains("Temp") || t.contains("VRAM%") || t.contains("SCLK"))
            {
                header = true;
            } else if rocm_device_line(t).is_some() {
                // a detail query (`GPU[0] : ...`) under the same title
                let (d, _, end, _) = rocm_lines(lines, i);
                return (d, None, end, SmiTool::RocmSmi);
            } else if i > start + 6 {
                break;
            }
            i += 1;
            continue;
        }
        if t.is_empty() && !devices.is_empty() {
            break;
        }
        let first = t.split_whitespace().next().unwrap_or("");
        if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) && !raw.starts_with(' ') {
            devices.push(String::new());
        } else if raw.starts_with(' ')
            && !t.is_empty()
            && !t.starts_with('=')
            && !t.starts_with('(')
            && !t.starts_with("Name")
            && let Some(last) = devices.last_mut()
            && last.is_empty()
        {
            // ROCm 6: the product name on the line under its row
            *last = t.to_owned();
        }
        i += 1;
    }
    (devices, None, i, SmiTool::RocmSmi)
}

/// `GPU[0]  : Card series:  Instinct MI210`: the device index.
fn rocm_device_line(line: &str) -> Option<u32> {
    let rest = line.trim().strip_prefix("GPU[")?;
    let (index, rest) = rest.split_once(']')?;
    rest.trim_start().starts_with(':').then_some(())?;
    index.parse().ok()
}

/// `GPU: 0` of `amd-smi list`: the device index.
fn amd_smi_gpu(line: &str) -> Option<u32> {
    line.trim().strip_prefix("GPU: ")?.trim().parse().ok()
}

/// Consecutive `GPU[n] : ...` / `amd-smi list` lines from `start`: one device per index.
fn rocm_lines(lines: &[&str], start: usize) -> Found {
    let mut seen: Vec<(u32, String)> = Vec::new();
    let mut i = start;
    let mut gap = 0;
    while i < lines.len() && seen.len() < MAX_DEVICES {
        let line = lines[i];
        if let Some(idx) = rocm_device_line(line).or_else(|| amd_smi_gpu(line)) {
            gap = 0;
            let name = line
                .split_once("Card series:")
                .or_else(|| line.split_once("Card Series:"))
                .or_else(|| line.split_once("Card model:"))
                .map(|(_, n)| n.trim().to_owned())
                .unwrap_or_default();
            match seen.iter_mut().find(|(i, _)| *i == idx) {
                Some((_, n)) if n.is_empty() => *n = name,
                Some(_) => {}
                None => seen.push((idx, name)),
            }
        } else {
            gap += 1;
            // amd-smi list prints indented BDF/UUID lines between the GPU lines; rocm-smi
            // detail queries separate devices by rule lines
            if gap > 6 {
                break;
            }
        }
        i += 1;
    }
    let devices = seen.into_iter().map(|(_, n)| n).collect();
    (devices, None, i.saturating_sub(gap), SmiTool::RocmSmi)
}

/// True when `host` (a prompt host) names `node` (equal, or equal up to the first DNS label
/// of either).
fn host_matches(host: &str, node: &str) -> bool {
    let first = |s: &str| s.split('.').next().unwrap_or(s).to_ascii_lowercase();
    host.eq_ignore_ascii_case(node) || first(host) == first(node)
}

/// How a listing given as its own input was linked to a node ([`link_target`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkTarget {
    /// The node at this index of the nodes given, and why it is that one (`the prompt's host
    /// node-02`, `the file name`, `the only node of the inputs`).
    Node(usize, String),
    /// Not linked: why (the nodes it could be, or that none is named).
    Ambiguous(String),
}

/// Where `name` occurs in `label` as a whole word: not glued to a letter or digit on either
/// side (`node-1` is in `node-1-nvidia-smi.txt`, not in `node-12.txt`).
fn names_word(label: &str, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let label = label.to_ascii_lowercase();
    let name = name.to_ascii_lowercase();
    label.match_indices(&name).any(|(at, _)| {
        let before = label[..at].chars().next_back();
        let after = label[at + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

/// The node a listing read from its own input (`source`, a file name) belongs to: the node its
/// shell prompt names (`user@node-02:~$ nvidia-smi`), else the one node the file name names
/// (`node-02-nvidia-smi.txt`; the longest name when one contains another), else the only node
/// of the inputs. Several candidates, a prompt host that is no node, or no node at all:
/// [`LinkTarget::Ambiguous`] with the reason.
pub fn link_target(listing: &SmiListing, source: &str, nodes: &[Node]) -> LinkTarget {
    let tool = listing.tool.as_str();
    if nodes.is_empty() {
        return LinkTarget::Ambiguous(format!(
            "{tool} listing ({}) not linked to a node: the inputs hold no node",
            listing.summary()
        ));
    }
    if let Some(host) = &listing.host {
        return match nodes
            .iter()
            .position(|n| host_matches(host, &n.metadata.name))
        {
            Some(i) => LinkTarget::Node(i, format!("the prompt's host {host}")),
            None => LinkTarget::Ambiguous(format!(
                "{tool} listing ({}) not linked to a node: its prompt names host {host}, which is none of the {} node(s) of the inputs",
                listing.summary(),
                nodes.len()
            )),
        };
    }
    let file = source.rsplit(['/', '\\']).next().unwrap_or(source);
    let mut named: Vec<usize> = (0..nodes.len())
        .filter(|&i| {
            let name = &nodes[i].metadata.name;
            let first = name.split('.').next().unwrap_or(name);
            names_word(file, name) || (first.len() >= 3 && names_word(file, first))
        })
        .collect();
    // `gpu-node-1` also contains `node-1`: the longest name is the one meant
    if let Some(longest) = named.iter().map(|&i| nodes[i].metadata.name.len()).max() {
        named.retain(|&i| nodes[i].metadata.name.len() == longest);
    }
    match named.as_slice() {
        [one] => return LinkTarget::Node(*one, format!("the file name {file}")),
        [_, _, ..] => {
            return LinkTarget::Ambiguous(format!(
                "{tool} listing ({}) not linked to a node: the file name {file} names several nodes ({})",
                listing.summary(),
                named
                    .iter()
                    .map(|&i| nodes[i].metadata.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        [] => {}
    }
    if nodes.len() == 1 {
        return LinkTarget::Node(0, "the only node of the inputs".to_owned());
    }
    LinkTarget::Ambiguous(format!(
        "{tool} listing ({}) not linked to a node: the inputs hold {} nodes and neither a shell prompt (`user@<node>:~$ {tool}`) nor the file name names one; paste it with the prompt, or name the file after the node",
        listing.summary(),
        nodes.len()
    ))
}

/// Records every listing of `text` on the node it belongs to (see the module docs), as the
/// tool's annotation with [`SmiListing::summary`]; several listings of one tool for one node:
/// the last wins. Returns one note per listing that could not be placed (several nodes and no
/// prompt, or a prompt host that is none of them).
pub fn attach(text: &str, nodes: &mut [Node]) -> Vec<String> {
    let mut notes = Vec::new();
    if nodes.is_empty() || !might_list_gpus(text) {
        return notes;
    }
    for listing in find_tables(text) {
        let target = listing
            .host
            .as_deref()
            .and_then(|h| nodes.iter().position(|n| host_matches(h, &n.metadata.name)))
            .or_else(|| (nodes.len() == 1).then_some(0));
        match target {
            Some(i) => {
                nodes[i]
                    .metadata
                    .annotations
                    .insert(listing.tool.annotation().to_owned(), listing.summary());
            }
            None => notes.push(match &listing.host {
                Some(h) => format!(
                    "{} listing ({}) at line {} not linked to a node: its prompt names host {h}, which is none of the {} node(s) of the text",
                    listing.tool.as_str(),
                    listing.summary(),
                    listing.line,
                    nodes.len()
                ),
                None => format!(
                    "{} listing ({}) at line {} not linked to a node: the text holds {} nodes and no shell prompt (`user@<node>:~$ {}`) says whose GPUs these are",
                    listing.tool.as_str(),
                    listing.summary(),
                    listing.line,
                    nodes.len(),
                    listing.tool.as_str()
                ),
            }),
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    const NVIDIA: &str = "root@node-02:~# nvidia-smi
Fri Jul 19 03:21:02 2024
+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 535.183.01             Driver Version: 535.183.01   CUDA Version: 12.2     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
|=========================================+======================+======================|
|   0  Tesla P4                       Off | 00000000:86:00.0 Off |                    0 |
| N/A   28C    P8               6W /  75W |      4MiB /  7680MiB |      0%      Default |
+-----------------------------------------+----------------------+----------------------+
|   1  Tesla P4                       Off | 00000000:AF:00.0 Off |                    0 |
+-----------------------------------------+----------------------+----------------------+

+---------------------------------------------------------------------------------------+
| Processes:                                                                            |
|  GPU   GI   CI        PID   Type   Process name                            GPU Memory |
|    0   N/A  N/A     12345      C   python                                     4MiB |
+---------------------------------------------------------------------------------------+
";

    #[test]
    fn nvidia_smi_default_table() {
        let t = find_tables(NVIDIA);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].devices, vec!["Tesla P4", "Tesla P4"]);
        assert_eq!(t[0].host.as_deref(), Some("node-02"));
        assert_eq!(t[0].summary(), "2 GPU(s): Tesla P4 x2; driver 535.183.01");
    }

    #[test]
    fn nvidia_smi_old_layout_and_list() {
        let old = "+-----------------------------------------------------------------------------+
| NVIDIA-SMI 418.67       Driver Version: 418.67       CUDA Version: 10.1     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
|===============================+======================+======================|
|   0  Tesla K80           On   | 0000:00:1E.0     Off |                    0 |
+-------------------------------+----------------------+----------------------+
";
        let t = find_tables(old);
        assert_eq!(t[0].devices, vec!["Tesla K80"]);
        let l = "$ nvidia-smi -L\nGPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5a2b)\n  MIG 1g.5gb Device 0: (UUID: MIG-1)\nGPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-5a2c)\n";
        let t = find_tables(l);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].devices.len(), 2);
        assert_eq!(t[0].host, None);
    }

    #[test]
    fn rocm_smi_tables() {
        let old = "$ rocm-smi
========================ROCm System Management Interface========================
================================================================================
GPU  Temp   AvgPwr  SCLK     MCLK    Fan   Perf  PwrCap  VRAM%  GPU%
1    48.0c  27.0W   1386Mhz  800Mhz  0.0%  auto  225.0W    0%   0%
2    46.0c  25.0W   1386Mhz  800Mhz  0.0%  auto  225.0W    0%   0%
================================================================================
==============================End of ROCm SMI Log ==============================
";
        let t = find_tables(old);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].tool, SmiTool::RocmSmi);
        assert_eq!(t[0].devices.len(), 2);
        let v6 = "[root@gpu-01 ~]# rocm-smi
========================================= ROCm System Management Interface =========================================
=================================================== Concise Info ===================================================
Device  [Model : Revision]    Temp    Power  Partitions      SCLK    MCLK    Fan  Perf  PwrCap  VRAM%  GPU%
        Name (20 chars)       (Edge)  (Avg)  (Mem, Compute)
====================================================================================================================
0       [0x74a1 : 0x00]       35.0°C  140.0W  NPS1, SPX       132Mhz  900Mhz  0%   auto  750.0W    0%   0%
        AMD Instinct MI300X
1       [0x74a1 : 0x00]       36.0°C  141.0W  NPS1, SPX       132Mhz  900Mhz  0%   auto  750.0W    0%   0%
        AMD Instinct MI300X
====================================================================================================================
=============================================== End of ROCm SMI Log ================================================
";
        let t = find_tables(v6);
        assert_eq!(t[0].devices, vec!["AMD Instinct MI300X"; 2]);
        assert_eq!(t[0].host.as_deref(), Some("gpu-01"));
        let names = "GPU[0]\t\t: Card series:\t\tInstinct MI210\nGPU[1]\t\t: Card series:\t\tInstinct MI210\n";
        assert_eq!(find_tables(names)[0].devices.len(), 2);
    }

    #[test]
    fn prompts() {
        assert_eq!(
            prompt_host("root@node-02:~# nvidia-smi").as_deref(),
            Some("node-02")
        );
        assert_eq!(
            prompt_host("[root@gpu-01 ~]# rocm-smi").as_deref(),
            Some("gpu-01")
        );
        assert_eq!(prompt_host("dev@box % nvidia-smi").as_deref(), Some("box"));
        assert_eq!(prompt_host("mail me at a@b.c about nvidia-smi"), None);
        assert!(host_matches("node-02", "node-02.example.internal"));
        assert!(!host_matches("node-02", "node-03"));
    }

    #[test]
    fn attached_to_the_prompt_host_or_the_only_node() {
        let mut a = Node::default();
        a.metadata.name = "node-01".into();
        let mut b = Node::default();
        b.metadata.name = "node-02".into();
        let mut nodes = vec![a.clone(), b];
        attach(NVIDIA, &mut nodes);
        assert!(nodes[0].metadata.annotations.is_empty());
        assert!(nodes[1].metadata.annotations[NVIDIA_SMI_ANNOTATION].contains("Tesla P4"));
        // no prompt, two nodes: whose GPUs they are is not said
        let bare = NVIDIA.replace("root@node-02:~# ", "");
        let mut two = vec![a.clone(), a.clone()];
        attach(&bare, &mut two);
        assert!(two.iter().all(|n| n.metadata.annotations.is_empty()));
        let mut one = vec![a];
        attach(&bare, &mut one);
        assert_eq!(one[0].metadata.annotations.len(), 1);
        // "No devices were found" and prose name no device
        let mut one = vec![Node::default()];
        attach(
            "$ nvidia-smi\nNo devices were found\nGPU 0 is fine\n",
            &mut one,
        );
        assert!(one[0].metadata.annotations.is_empty());
    }

    #[test]
    fn listing_of_its_own_file_is_linked_by_prompt_file_name_or_only_node() {
        let node = |name: &str| {
            let mut n = Node::default();
            n.metadata.name = name.to_owned();
            n
        };
        let listing = |host: Option<&str>| SmiListing {
            tool: SmiTool::NvidiaSmi,
            devices: vec!["Tesla P4".into()],
            driver: None,
            host: host.map(str::to_owned),
            line: 1,
        };
        let two = [node("gpu-node-1"), node("node-1")];
        assert_eq!(
            link_target(&listing(Some("node-1")), "smi.txt", &two),
            LinkTarget::Node(1, "the prompt's host node-1".into())
        );
        assert!(matches!(
            link_target(&listing(Some("node-9")), "smi.txt", &two),
            LinkTarget::Ambiguous(m) if m.contains("node-9")
        ));
        // the longest name the file names wins; a name glued to a digit is not named
        assert!(matches!(
            link_target(&listing(None), "/tmp/gpu-node-1-nvidia-smi.txt", &two),
            LinkTarget::Node(0, _)
        ));
        assert!(matches!(
            link_target(&listing(None), "node-12.txt", &two),
            LinkTarget::Ambiguous(m) if m.contains("2 nodes")
        ));
        assert!(matches!(
            link_target(&listing(None), "smi.txt", &[node("a")]),
            LinkTarget::Node(0, _)
        ));
        assert!(matches!(
            link_target(&listing(None), "smi.txt", &[]),
            LinkTarget::Ambiguous(_)
        ));
        let mut nodes = [node("node-01"), node("node-02")];
        let notes = attach(
            NVIDIA.trim_start_matches("root@node-02:~# nvidia-smi\n"),
            &mut nodes,
        );
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("2 nodes"));
    }
}
