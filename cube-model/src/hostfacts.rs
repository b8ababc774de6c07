//! Host facts pasted in a bug report: what a machine is, not what went wrong on it.
//!
//! People paste the environment part of an issue template, a PCI listing, `uname -a` or the
//! versions of their tools next to (or instead of) the error. None of it is Kubernetes-shaped,
//! yet an input made only of such facts is not an unread picture: it was read, and there is
//! nothing to diagnose in it. [`read`] accounts for every line of a text: a line is accounted
//! for only by a recognised shape (below) and only when it carries no failure signal
//! ([`failure_signal`]); [`HostFacts::all_clear`] is true only when every non-blank line is
//! accounted for, at least one real fact (not only headings) was read, and no line carries a
//! failure signal. Anything else stays "not recognised" for the caller (a false all-clear is
//! the worst answer).
//!
//! Shapes (as the tools print them):
//! - `lspci` rows `[[dddd:]bb:]dd.f <class>: <vendor> <device> [rev xx]` (pciutils `lspci.c`
//!   `show_terse`, with `-nn` ids `[10de:20b0]`), and its `-v` / `-k` detail lines (`Subsystem:`,
//!   `Kernel driver in use:`, `Kernel modules:`, `Flags:`, `Memory at`, `Capabilities:`...);
//!   GPUs and accelerators of NVIDIA (`10de`), AMD (`1002`) and Intel (`8086`) are counted
//!   ([`HostFacts::gpus`]). `(rev ff)` (a device that fell off the bus: config space reads
//!   all ones) and `Unknown header type` are failures;
//! - `lshw -C display` (`*-display`, `description:`, `product:`, `vendor:`, `bus info:`, ...);
//! - `uname -a` (`Linux <host> <release> #<build> ... GNU/Linux`);
//! - `/etc/os-release` (`KEY=value`, systemd `os-release(5)`), `lsb_release -a`, `hostnamectl`;
//! - versions: `k3s version v1.28.7+k3s1 (051b14b2)` / `rke2 version ...` (k3s
//!   `pkg/cli/cmds/root.go` prints `%s version %s (%s)` and `go version %s`), `kubectl version`
//!   (`Client Version: v1.28.2`, `Server Version: ...`, `Kustomize Version: ...`, the older
//!   `version.Info{...}` form), `kubelet --version` (`Kubernetes v1.28.2`), `kubeadm version: ...`,
//!   `containerd --version`, `docker version` / `docker --version` / `docker info`, `runc
//!   --version`, `crictl version`, `crio --version`, `helm version`;
//! - `nvidia-smi -L` (`GPU 0: <name> (UUID: GPU-...)`, MIG lines);
//! - `free`, `df`, `lsmod`, `/proc/cpuinfo`, `lscpu`, `nproc`;
//! - issue-template environment blocks (k3s-io/k3s and rancher/rke2 `.github/ISSUE_TEMPLATE`:
//!   `**Environmental Info:**`, `K3s Version:`, `Node(s) CPU architecture, OS, and Version:`,
//!   `Cluster Configuration:`; kubernetes/kubernetes and kubeadm: `Kubernetes version`, `Cloud
//!   provider`, `OS version`, `Kernel (e.g. uname -a)`, `Container runtime`, `Install tools`,
//!   ...): inside them, free answers are accounted for; a heading of any other section
//!   (`Describe the bug`, `Actual behavior`, `What happened`) ends the block, and its text is
//!   not;
//! - the commands that print these (`lspci -d 1002:75a3`, `uname -a`, `k3s --version`) and a
//!   short caption ending with `:` right before one of them (`PCI device detection:`).

use crate::node::GpuVendor;

mod tools;

/// What one accounted line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum FactKind {
    /// An `lspci` device row (or `lshw` display entry).
    PciDevice,
    /// An `lspci -v` / `lshw` detail line.
    PciDetail,
    /// A `uname -a` line.
    Kernel,
    /// An `/etc/os-release`, `lsb_release` or `hostnamectl` line.
    Os,
    /// A tool or component version (`k3s version v1.28.7+k3s1`).
    Version,
    /// An `nvidia-smi -L` line.
    GpuList,
    /// `free`, `df`, `lsmod`, `/proc/cpuinfo`, `lscpu` output.
    Resources,
    /// A heading or answer of an issue template's environment block.
    Template,
    /// A command that prints host facts, or a caption before it.
    Command,
    /// A line of an accelerator self-check that passed: CUDA `deviceQuery`, Huawei `npu-smi
    /// info`, PaddlePaddle `run_check()` (see the module documentation).
    ToolOutput,
}

impl FactKind {
    fn label(self) -> &'static str {
        match self {
            FactKind::PciDevice => "PCI devices",
            FactKind::PciDetail => "PCI details",
            FactKind::Kernel => "uname",
            FactKind::Os => "OS release",
            FactKind::Version => "versions",
            FactKind::GpuList => "nvidia-smi -L",
            FactKind::Resources => "memory/disk/CPU/modules",
            FactKind::Template => "issue-template environment block",
            FactKind::Command => "commands",
            FactKind::ToolOutput => "accelerator self-check",
        }
    }
    /// A fact about the machine (not only a heading, caption or command).
    fn substantive(self) -> bool {
        !matches!(
            self,
            FactKind::Template | FactKind::Command | FactKind::PciDetail
        )
    }
}

/// One accounted line.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HostFact {
    /// Index of the line in the lines given to [`read`].
    pub index: usize,
    /// What it is.
    pub kind: FactKind,
    /// The line, normalised (list markers, backticks and a leading label removed).
    pub text: String,
}

/// A GPU or accelerator seen in a PCI listing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PciGpu {
    /// Index of the line.
    pub index: usize,
    /// The vendor.
    pub vendor: GpuVendor,
    /// The PCI address as printed (`51:00.0`).
    pub address: String,
    /// The row after the address (`Processing accelerators: Advanced Micro Devices, ...`).
    pub description: String,
}

/// How every line of a text was accounted for (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct HostFacts {
    /// Accounted lines.
    pub facts: Vec<HostFact>,
    /// Indices of non-blank lines no shape accounts for.
    pub unaccounted: Vec<usize>,
    /// Indices of lines that carry a failure signal ([`failure_signal`]).
    pub failures: Vec<usize>,
    /// GPUs and accelerators of the PCI listings.
    pub gpus: Vec<PciGpu>,
    /// Versions read (`k3s v1.28.7+k3s1`, `kubectl client v1.28.2`, `kubelet v1.28.2`).
    pub versions: Vec<String>,
    /// Accelerator self-checks read, with what they showed (`deviceQuery: 1 CUDA device(s):
    /// NVIDIA Tegra X1`, `npu-smi info: 2 NPU chip(s), all Health OK`).
    pub checks: Vec<String>,
}

impl HostFacts {
    /// True when the text is host facts and nothing else: every non-blank line accounted for,
    /// at least one fact about the machine, no failure signal anywhere.
    pub fn all_clear(&self) -> bool {
        self.unaccounted.is_empty()
            && self.failures.is_empty()
            && self.facts.iter().any(|f| f.kind.substantive())
    }

    /// `lspci: 7 GPU/accelerator(s) (AMD x7); versions: k3s v1.28.7+k3s1; uname: 2 line(s)`.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if !self.gpus.is_empty() {
            let mut by: Vec<(GpuVendor, usize)> = Vec::new();
            for g in &self.gpus {
                match by.iter_mut().find(|(v, _)| *v == g.vendor) {
                    Some((_, n)) => *n += 1,
                    None => by.push((g.vendor, 1)),
                }
            }
            let vendors: Vec<String> = by
                .iter()
                .map(|(v, n)| format!("{} x{n}", v.as_str()))
                .collect();
            parts.push(format!(
                "PCI: {} GPU/accelerator(s) ({})",
                self.gpus.len(),
                vendors.join(", ")
            ));
        }
        if !self.checks.is_empty() {
            parts.push(self.checks.join("; "));
        }
        if !self.versions.is_empty() {
            let mut v = self.versions.clone();
            v.dedup();
            v.truncate(6);
            parts.push(format!("versions: {}", v.join(", ")));
        }
        let mut kinds: Vec<FactKind> = self
            .facts
            .iter()
            .map(|f| f.kind)
            .filter(|k| {
                !matches!(
                    k,
                    FactKind::Version
                        | FactKind::Command
                        | FactKind::PciDetail
                        | FactKind::ToolOutput
                ) && (self.gpus.is_empty() || *k != FactKind::PciDevice)
            })
            .collect();
        kinds.sort();
        kinds.dedup();
        for k in kinds {
            let n = self.facts.iter().filter(|f| f.kind == k).count();
            parts.push(format!("{}: {n} line(s)", k.label()));
        }
        parts.join("; ")
    }
}

/// Words and phrases that say something is wrong; a line holding one is never accounted for
/// as a plain fact.
const FAILURE_WORDS: &[&str] = &[
    "error",
    "errors",
    "err",
    "fail",
    "failed",
    "failing",
    "failure",
    "fatal",
    "refused",
    "denied",
    "forbidden",
    "unauthorized",
    "x509",
    "panic",
    "timeout",
    "cannot",
    "can't",
    "unable",
    "notready",
    "pending",
    "crash",
    "crashed",
    "crashloopbackoff",
    "backoff",
    "evicted",
    "oomkilled",
    "killed",
    "invalid",
    "expired",
    "mismatch",
    "missing",
    "broken",
    "wrong",
    "doesn't",
    "don't",
    "didn't",
    "isn't",
    "won't",
    "stuck",
    "hangs",
    "hung",
    "unknown",
    "warning",
    "degraded",
    "unhealthy",
    "insufficient",
    "exceeded",
    "unschedulable",
    "unreachable",
    "lost",
    "corrupt",
    "corrupted",
    "broke",
    "breaks",
];

const FAILURE_PHRASES: &[&str] = &[
    "timed out",
    "can not",
    "not found",
    "no such",
    "not ready",
    "does not",
    "did not",
    "not work",
    "no devices",
    "err!",
    "(rev ff)",
    "header type 7f",
    "no space",
];

/// True when `line` carries a failure signal: an error or failure word, a refusal, a state
/// that is not healthy, a device that fell off the bus (`(rev ff)`), a full disk (`100%`).
pub fn failure_signal(line: &str) -> bool {
    let lower = line.to_lowercase();
    if FAILURE_PHRASES.iter().any(|p| lower.contains(p)) {
        return true;
    }
    if lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .any(|w| FAILURE_WORDS.contains(&w))
    {
        return true;
    }
    // a full file system in a `df` row
    lower
        .split_whitespace()
        .any(|w| w == "100%" && lower.contains('/'))
}

/// The line without list markers, block-quote markers, bold markers, check boxes and
/// surrounding backticks.
fn normalise(line: &str) -> String {
    let mut t = line.trim();
    loop {
        let before = t;
        for p in ["- ", "* ", "+ ", "> ", "[ ] ", "[x] ", "[X] "] {
            if let Some(r) = t.strip_prefix(p) {
                t = r.trim_start();
            }
        }
        // `1. ` / `2) `
        let digits = t.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 && digits < 3 {
            let r = &t[digits..];
            if let Some(r) = r.strip_prefix(". ").or_else(|| r.strip_prefix(") ")) {
                t = r.trim_start();
            }
        }
        if t == before {
            break;
        }
    }
    let t = t.replace("**", "").replace("__", "");
    let t = t.trim();
    let t = t
        .strip_prefix('`')
        .and_then(|r| r.strip_suffix('`'))
        .unwrap_or(t);
    t.trim().to_owned()
}

fn is_hex(s: &str, n: usize) -> bool {
    s.len() == n && s.chars().all(|c| c.is_ascii_hexdigit())
}

/// An `lspci` row: `51:00.0 Processing accelerators: ...` or `0000:51:00.0 3D controller
/// [0302]: NVIDIA Corporation ...`; returns (address, rest).
fn lspci_row(t: &str) -> Option<(&str, &str)> {
    let (addr, rest) = t.split_once(' ')?;
    let parts: Vec<&str> = addr.split(':').collect();
    let (bus, devfn) = match parts.as_slice() {
        [dom, bus, devfn] if is_hex(dom, 4) => (*bus, *devfn),
        [bus, devfn] => (*bus, *devfn),
        _ => return None,
    };
    let (dev, func) = devfn.split_once('.')?;
    if !(is_hex(bus, 2) && is_hex(dev, 2) && func.len() == 1 && func.as_bytes()[0].is_ascii_digit())
    {
        return None;
    }
    // `<class>[ [cccc]]: <vendor and device>`
    let (class, _) = rest.split_once(": ")?;
    (!class.is_empty() && class.len() < 60).then_some((addr, rest))
}

/// True for an `lspci` row (`51:00.0 Processing accelerators: ...`).
pub(crate) fn is_lspci_row(t: &str) -> bool {
    lspci_row(t).is_some()
}

/// The vendor of an `lspci` row that is evidence of a GPU node: any NVIDIA display, 3D or
/// accelerator device; AMD and Intel ones that are not a `VGA compatible controller` (the
/// on-board graphics of a server or desktop is no compute GPU: AMD Instinct shows as a
/// display controller or processing accelerator, Intel's data-center GPUs as a display
/// controller). `None` for any other line.
pub(crate) fn lspci_gpu(t: &str) -> Option<GpuVendor> {
    let (_, rest) = lspci_row(t.trim())?;
    let vendor = pci_gpu_vendor(rest)?;
    let vga = rest.to_lowercase().contains("vga compatible controller");
    (vendor == GpuVendor::Nvidia || !vga).then_some(vendor)
}

/// The GPU vendor of an `lspci` row's text, when the row is a display, 3D or processing
/// accelerator device (PCI classes 03xx and 12xx).
fn pci_gpu_vendor(rest: &str) -> Option<GpuVendor> {
    let lower = rest.to_lowercase();
    let class_ok = [
        "vga compatible controller",
        "3d controller",
        "display controller",
        "processing accelerators",
        "[0300]",
        "[0302]",
        "[0380]",
        "[1200]",
    ]
    .iter()
    .any(|c| lower.contains(c));
    if !class_ok {
        return None;
    }
    if lower.contains("nvidia") || lower.contains("[10de:") {
        Some(GpuVendor::Nvidia)
    } else if lower.contains("advanced micro devices")
        || lower.contains("amd/ati")
        || lower.contains("[1002:")
    {
        Some(GpuVendor::Amd)
    } else if lower.contains("intel") || lower.contains("[8086:") {
        Some(GpuVendor::Intel)
    } else {
        None
    }
}

/// Keys of `Key: value` lines the host-fact tools print (lowercased): `lspci -v`, `lshw`,
/// `lsb_release -a`, `hostnamectl`, `docker version` / `docker info`, `crictl version`, `crio
/// --version`, `runc --version`, `/proc/cpuinfo`, `lscpu`, `free`.
const FACT_KEYS: &[(&str, FactKind)] = &[
    // lspci -v / -k
    ("subsystem", FactKind::PciDetail),
    ("kernel driver in use", FactKind::PciDetail),
    ("kernel modules", FactKind::PciDetail),
    ("flags", FactKind::PciDetail),
    ("physical slot", FactKind::PciDetail),
    ("capabilities", FactKind::PciDetail),
    ("numa node", FactKind::PciDetail),
    ("iommu group", FactKind::PciDetail),
    ("control", FactKind::PciDetail),
    ("latency", FactKind::PciDetail),
    ("interrupt", FactKind::PciDetail),
    ("devicename", FactKind::PciDetail),
    // lshw
    ("description", FactKind::PciDetail),
    ("product", FactKind::PciDetail),
    ("vendor", FactKind::PciDetail),
    ("physical id", FactKind::PciDetail),
    ("bus info", FactKind::PciDetail),
    ("logical name", FactKind::PciDetail),
    ("width", FactKind::PciDetail),
    ("clock", FactKind::PciDetail),
    ("configuration", FactKind::PciDetail),
    ("resources", FactKind::PciDetail),
    // lsb_release, hostnamectl
    ("distributor id", FactKind::Os),
    ("release", FactKind::Os),
    ("codename", FactKind::Os),
    ("static hostname", FactKind::Os),
    ("icon name", FactKind::Os),
    ("chassis", FactKind::Os),
    ("machine id", FactKind::Os),
    ("boot id", FactKind::Os),
    ("operating system", FactKind::Os),
    ("kernel", FactKind::Kernel),
    ("architecture", FactKind::Resources),
    ("hardware vendor", FactKind::Os),
    ("hardware model", FactKind::Os),
    ("firmware version", FactKind::Os),
    ("virtualization", FactKind::Os),
    // docker version / info, crictl version, crio --version, runc --version
    ("client", FactKind::Version),
    ("server", FactKind::Version),
    ("engine", FactKind::Version),
    ("containerd", FactKind::Version),
    ("runc", FactKind::Version),
    ("docker-init", FactKind::Version),
    ("version", FactKind::Version),
    ("api version", FactKind::Version),
    ("go version", FactKind::Version),
    ("goversion", FactKind::Version),
    ("git commit", FactKind::Version),
    ("gitcommit", FactKind::Version),
    ("gitcommitdate", FactKind::Version),
    ("gittreestate", FactKind::Version),
    ("builddate", FactKind::Version),
    ("built", FactKind::Version),
    ("os/arch", FactKind::Version),
    ("context", FactKind::Version),
    ("experimental", FactKind::Version),
    ("compiler", FactKind::Version),
    ("platform", FactKind::Version),
    ("linkmode", FactKind::Version),
    ("buildtags", FactKind::Version),
    ("seccompenabled", FactKind::Version),
    ("apparmorenabled", FactKind::Version),
    ("runtimename", FactKind::Version),
    ("runtimeversion", FactKind::Version),
    ("runtimeapiversion", FactKind::Version),
    ("commit", FactKind::Version),
    ("spec", FactKind::Version),
    ("libseccomp", FactKind::Version),
    ("storage driver", FactKind::Version),
    ("cgroup driver", FactKind::Version),
    ("cgroup version", FactKind::Version),
    ("default runtime", FactKind::Version),
    ("runtimes", FactKind::Version),
    ("kernel version", FactKind::Kernel),
    ("total memory", FactKind::Resources),
    ("cpus", FactKind::Resources),
    // /proc/cpuinfo, lscpu
    ("processor", FactKind::Resources),
    ("vendor_id", FactKind::Resources),
    ("vendor id", FactKind::Resources),
    ("cpu family", FactKind::Resources),
    ("model", FactKind::Resources),
    ("model name", FactKind::Resources),
    ("stepping", FactKind::Resources),
    ("microcode", FactKind::Resources),
    ("cpu mhz", FactKind::Resources),
    ("cpu max mhz", FactKind::Resources),
    ("cpu min mhz", FactKind::Resources),
    ("cache size", FactKind::Resources),
    ("siblings", FactKind::Resources),
    ("core id", FactKind::Resources),
    ("cpu cores", FactKind::Resources),
    ("apicid", FactKind::Resources),
    ("initial apicid", FactKind::Resources),
    ("fpu", FactKind::Resources),
    ("fpu_exception", FactKind::Resources),
    ("cpuid level", FactKind::Resources),
    ("wp", FactKind::Resources),
    ("bugs", FactKind::Resources),
    ("bogomips", FactKind::Resources),
    ("clflush size", FactKind::Resources),
    ("cache_alignment", FactKind::Resources),
    ("address sizes", FactKind::Resources),
    ("power management", FactKind::Resources),
    ("features", FactKind::Resources),
    ("cpu implementer", FactKind::Resources),
    ("cpu architecture", FactKind::Resources),
    ("cpu variant", FactKind::Resources),
    ("cpu part", FactKind::Resources),
    ("cpu revision", FactKind::Resources),
    ("hardware", FactKind::Resources),
    ("revision", FactKind::Resources),
    ("cpu op-mode(s)", FactKind::Resources),
    ("byte order", FactKind::Resources),
    ("cpu(s)", FactKind::Resources),
    ("on-line cpu(s) list", FactKind::Resources),
    ("thread(s) per core", FactKind::Resources),
    ("core(s) per socket", FactKind::Resources),
    ("socket(s)", FactKind::Resources),
    ("numa node(s)", FactKind::Resources),
    ("hypervisor vendor", FactKind::Resources),
    ("virtualization type", FactKind::Resources),
    ("l1d cache", FactKind::Resources),
    ("l1i cache", FactKind::Resources),
    ("l2 cache", FactKind::Resources),
    ("l3 cache", FactKind::Resources),
    ("mem", FactKind::Resources),
    ("swap", FactKind::Resources),
];

/// Headings of issue templates' environment sections (lowercased, `**`, `#` and a final `:`
/// removed), matched as prefixes.
const ENV_HEADINGS: &[&str] = &[
    "environmental info",
    "environment",
    "k3s version",
    "rke2 version",
    "node(s) cpu architecture",
    "cluster configuration",
    "kubernetes version",
    "cloud provider",
    "os version",
    "os (e.g",
    "kernel (e.g",
    "install tools",
    "container runtime",
    "container networking plugin",
    "related plugins",
    "network plugin",
    "others",
    "hardware configuration",
    "gpu type",
    "gpu model",
    "driver version",
    "nvidia driver version",
    "cuda version",
    "helm version",
    "chart version",
    "versions",
    "system info",
];

/// A heading line: Markdown `#` heading, a wholly bold line, or a short line ending with `:`.
/// Returns it lowercased without the markers.
fn heading(raw: &str) -> Option<String> {
    let t = raw.trim();
    let hashes = t.starts_with('#');
    let bold = t.starts_with("**") && t.ends_with("**") && t.len() > 4;
    let body = t
        .trim_start_matches('#')
        .trim()
        .trim_matches('*')
        .trim()
        .trim_end_matches(':')
        .trim_end_matches('*')
        .trim();
    let colon = normalise(t).ends_with(':');
    ((hashes || bold || colon) && !body.is_empty() && body.split_whitespace().count() <= 10)
        .then(|| body.to_lowercase())
}

fn env_heading(h: &str) -> bool {
    ENV_HEADINGS.iter().any(|p| h.starts_with(p))
}

/// A version line; returns the version named (`k3s v1.28.7+k3s1`).
fn version_line(t: &str) -> Option<String> {
    let words: Vec<&str> = t.split_whitespace().collect();
    let v = |w: &str| {
        w.trim_start_matches('v')
            .trim_start_matches("go")
            .starts_with(|c: char| c.is_ascii_digit())
    };
    match words.as_slice() {
        // `k3s version v1.28.7+k3s1 (051b14b2)`, `go version go1.21.7 linux/amd64`, `crio
        // version 1.28.1`, `runc version 1.1.7`, `helm version ...`
        [tool, "version", ver, ..] if v(ver) => Some(format!("{tool} {ver}")),
        // `Client Version: v1.28.2`, `Server Version: v1.28.7+k3s1`, `Kustomize Version: ...`
        [which, "Version:", ver, ..]
            if matches!(*which, "Client" | "Server" | "Kustomize")
                && (v(ver) || ver.starts_with("version.Info{")) =>
        {
            Some(format!("{} {ver}", which.to_lowercase()))
        }
        // `kubelet --version` / `kubeadm version -o short`: `Kubernetes v1.28.2`
        ["Kubernetes", ver] if v(ver) => Some(format!("kubelet {ver}")),
        // `kubeadm version: &version.Info{Major:"1", ...}`
        ["kubeadm", "version:", ..] => Some("kubeadm".to_owned()),
        // `containerd github.com/containerd/containerd v1.7.2 <commit>`
        ["containerd", _, ver, ..] if v(ver) => Some(format!("containerd {ver}")),
        // `Docker version 24.0.5, build ced0996`
        ["Docker", "version", ver, ..] if v(ver) => {
            Some(format!("docker {}", ver.trim_end_matches(',')))
        }
        // `NVIDIA Container Runtime Hook version 1.14.3`, `NVIDIA Container Toolkit CLI version`
        ["NVIDIA", "Container", .., "version", ver] if v(ver) => {
            Some(format!("nvidia-container-toolkit {ver}"))
        }
        // helm: `version.BuildInfo{Version:"v3.12.0", ...}`
        [info, ..] if info.starts_with("version.BuildInfo{") => Some("helm".to_owned()),
        _ => None,
    }
}

/// A command that prints host facts (after a shell prompt or as typed).
fn fact_command(t: &str) -> bool {
    let cmd = crate::paste::prompt_command(t).unwrap_or(t);
    let mut words = cmd.split_whitespace().skip_while(|w| *w == "sudo");
    let Some(first) = words.next() else {
        return false;
    };
    let rest: Vec<&str> = words.collect();
    let has = |a: &str| rest.contains(&a);
    match first {
        "lspci" | "lshw" | "uname" | "lsb_release" | "hostnamectl" | "free" | "df" | "lsmod"
        | "lscpu" | "nproc" => true,
        "cat" => {
            rest.iter().all(|f| {
                f.starts_with("/etc/os-release")
                    || f.starts_with("/etc/lsb-release")
                    || f.ends_with("-release")
                    || f.starts_with("/proc/cpuinfo")
                    || f.starts_with("/proc/meminfo")
                    || f.starts_with("/proc/version")
            }) && !rest.is_empty()
        }
        "k3s" | "rke2" | "kubelet" | "containerd" | "runc" | "crio" => {
            has("--version") || has("-v") || has("version") || has("-V")
        }
        "kubectl" | "kubeadm" | "crictl" | "helm" | "go" => {
            rest.first().is_some_and(|w| *w == "version")
        }
        "docker" => rest
            .first()
            .is_some_and(|w| matches!(*w, "version" | "info" | "--version" | "-v")),
        "nvidia-smi" => rest.is_empty() || has("-L") || has("--list-gpus"),
        // the accelerator self-checks read as blocks (module `tools`)
        "npu-smi" => rest.first().is_some_and(|w| *w == "info"),
        "./deviceQuery" | "deviceQuery" => true,
        _ => false,
    }
}

/// Marks a `Key: value` line of [`FACT_KEYS`]: generic keys (`Version:`, `Description:`)
/// count only next to a stronger fact (see [`read`]).
const WEAK: &str = "\0weak";

/// One line's shape, without looking at the lines around it.
fn shape(t: &str, gpus: &mut Vec<PciGpu>, index: usize) -> Option<(FactKind, Option<String>)> {
    if let Some((addr, rest)) = lspci_row(t) {
        if let Some(vendor) = pci_gpu_vendor(rest) {
            gpus.push(PciGpu {
                index,
                vendor,
                address: addr.to_owned(),
                description: rest.to_owned(),
            });
        }
        return Some((FactKind::PciDevice, None));
    }
    if let Some(v) = version_line(t) {
        return Some((FactKind::Version, Some(v)));
    }
    if fact_command(t) {
        return Some((FactKind::Command, None));
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    // uname -a: `Linux <host> <release> #<build> ... <machine> ... GNU/Linux`
    if matches!(words.first(), Some(&"Linux") | Some(&"Darwin"))
        && words.len() >= 4
        && (words.iter().any(|w| w.starts_with('#')) || t.ends_with("GNU/Linux"))
    {
        return Some((FactKind::Kernel, None));
    }
    // /etc/os-release `KEY=value` (os-release(5): keys are upper case)
    if let Some((k, _)) = t.split_once('=')
        && !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    {
        return Some((FactKind::Os, None));
    }
    if t == "No LSB modules are available." {
        return Some((FactKind::Os, None));
    }
    // nvidia-smi -L
    if (t.starts_with("GPU ") && t.contains("(UUID: GPU-"))
        || (t.starts_with("MIG ") && t.contains("(UUID: MIG-"))
    {
        return Some((FactKind::GpuList, None));
    }
    // lshw: `*-display`, `*-display:0`
    if t.starts_with("*-") && !t.contains(' ') {
        return Some((FactKind::PciDetail, None));
    }
    // table headers of free, df, lsmod
    let header = |cols: &[&str]| cols.iter().all(|c| words.contains(c));
    if header(&["total", "used", "free"])
        || (words.first() == Some(&"Filesystem")
            && (header(&["Size", "Used"]) || header(&["1K-blocks", "Used"]) || header(&["Inodes"])))
        || header(&["Module", "Size", "Used", "by"])
    {
        return Some((FactKind::Resources, None));
    }
    // a df row: `/dev/sda1  100G  50G  50G  50% /`, an lsmod row `nvidia_uvm  1234  0`
    if words.len() >= 6
        && words[4].ends_with('%')
        && words[4][..words[4].len() - 1]
            .chars()
            .all(|c| c.is_ascii_digit())
        && words[5].starts_with('/')
    {
        return Some((FactKind::Resources, None));
    }
    if (3..=5).contains(&words.len())
        && words[0]
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && words[1].chars().all(|c| c.is_ascii_digit())
        && words[2].chars().all(|c| c.is_ascii_digit())
    {
        return Some((FactKind::Resources, None));
    }
    // `Key: value` of the tools' listings (also `key\t: value` of /proc/cpuinfo, `Mem:` rows)
    if let Some((k, _)) = t.split_once(':') {
        let key = k.trim().to_lowercase();
        if key.starts_with("vulnerability ") || key.starts_with("numa node") {
            return Some((FactKind::Resources, None));
        }
        if let Some((_, kind)) = FACT_KEYS.iter().find(|(name, _)| *name == key) {
            return Some((*kind, Some(WEAK.to_owned())));
        }
    }
    None
}

/// True when `text` holds the output of an accelerator self-check that reached its verdict
/// (CUDA `deviceQuery`, `npu-smi info`, PaddlePaddle `run_check()`; see the module
/// documentation): its lines are that tool's output, not objects or a table of another kind.
pub fn self_check(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    !tools::blocks(&lines).is_empty()
}

/// Accounts for every line of `lines` (see the module documentation).
pub fn read(lines: &[&str]) -> HostFacts {
    let mut out = HostFacts::default();
    // accelerator self-checks are read as blocks: their lines are the tool's whatever words
    // they hold, and the block's own verdict says whether a line is a failure
    let blocks = tools::blocks(lines);
    let mut in_block: std::collections::BTreeMap<usize, bool> = std::collections::BTreeMap::new();
    for b in &blocks {
        for &l in &b.lines {
            in_block.insert(l, b.failures.contains(&l));
        }
        out.checks
            .push(format!("{}: {}", b.tool.as_str(), b.summary));
    }
    let block_starts: Vec<usize> = blocks.iter().map(|b| b.start).collect();
    // a caption right before a self-check may be a short sentence (`Now the container in k3s
    // works and returns:`)
    let before_block = |i: usize| {
        lines
            .iter()
            .enumerate()
            .skip(i + 1)
            .find(|(_, l)| {
                let t = l.trim();
                !t.is_empty()
                    && !t.chars().all(|c| matches!(c, '`' | '~'))
                    && crate::paste::prompt_command(t).is_none()
            })
            .is_some_and(|(j, _)| block_starts.contains(&j))
    };
    let mut env_block = false;
    let mut pending_caption: Vec<usize> = Vec::new();
    // a strong fact (a row, a version line, a command) seen since the last unaccounted line:
    // generic `Key: value` lines count only after one
    let mut strong = false;
    for (i, raw) in lines.iter().enumerate() {
        let raw_t = raw.trim();
        if raw_t.is_empty() {
            continue;
        }
        // HTML comments of templates, Markdown rules and fences, `<details>` wrappers
        if (raw_t.starts_with("<!--") && raw_t.ends_with("-->"))
            || raw_t
                .chars()
                .all(|c| matches!(c, '-' | '=' | '*' | '_' | '`' | '~'))
            || matches!(
                raw_t.to_lowercase().as_str(),
                "<details>" | "</details>" | "<pre>" | "</pre>"
            )
            || (raw_t.starts_with("<summary>") && raw_t.ends_with("</summary>"))
        {
            continue;
        }
        // the command that printed a self-check (`root@node-01:~# kubectl logs nvidia-query`)
        if !in_block.contains_key(&i)
            && crate::paste::prompt_command(raw_t).is_some()
            && before_block(i)
        {
            out.facts.push(HostFact {
                index: i,
                kind: FactKind::Command,
                text: raw_t.to_owned(),
            });
            continue;
        }
        if let Some(&failed) = in_block.get(&i) {
            if failed {
                out.failures.push(i);
                out.unaccounted.push(i);
                strong = false;
            } else {
                for c in pending_caption.drain(..) {
                    out.facts.push(HostFact {
                        index: c,
                        kind: FactKind::Command,
                        text: normalise(lines[c]),
                    });
                }
                out.facts.push(HostFact {
                    index: i,
                    kind: FactKind::ToolOutput,
                    text: raw_t.to_owned(),
                });
                strong = true;
            }
            continue;
        }
        if failure_signal(raw_t) {
            out.failures.push(i);
            out.unaccounted.push(i);
            strong = false;
            continue;
        }
        let t = normalise(raw_t);
        let mut fact = shape(&t, &mut out.gpus, i);
        // `Label: <fact>` (`Server: Linux pi 6.5.0 ... GNU/Linux`)
        let is_weak = |f: &Option<(FactKind, Option<String>)>| {
            f.is_none() || matches!(f, Some((_, Some(v))) if v == WEAK)
        };
        if is_weak(&fact)
            && let Some((label, value)) = t.split_once(": ")
            && label.split_whitespace().count() <= 4
        {
            let value = normalise(value);
            let inner = shape(&value, &mut out.gpus, i);
            if !is_weak(&inner) {
                fact = inner;
            }
        }
        if fact.is_none()
            && let Some(h) = heading(raw_t)
        {
            if env_heading(&h) {
                env_block = true;
                // `K3s Version: v1.28.7+k3s1`: the answer on the heading's line
                let answer = t.split_once(':').map(|(_, a)| normalise(a));
                if let Some(a) = answer
                    && let Some((FactKind::Version, Some(v))) = shape(&a, &mut out.gpus, i)
                {
                    out.versions.push(v);
                }
                fact = Some((FactKind::Template, None));
            } else if raw_t.starts_with('#') || raw_t.starts_with("**") {
                // another section of the template: its text is not host facts
                env_block = false;
            } else if t.ends_with(':')
                && (t.split_whitespace().count() <= 6
                    || (t.split_whitespace().count() <= 12 && before_block(i)))
            {
                // a caption: accounted when a fact or command follows it
                pending_caption.push(i);
                continue;
            }
        }
        let weak = matches!(&fact, Some((_, Some(v))) if v == WEAK);
        if weak && !strong && !env_block {
            fact = None;
        }
        match fact {
            Some((kind, version)) => {
                if !weak {
                    strong = true;
                }
                if let Some(v) = version.filter(|v| v != WEAK) {
                    out.versions.push(v);
                }
                for c in pending_caption.drain(..) {
                    out.facts.push(HostFact {
                        index: c,
                        kind: FactKind::Command,
                        text: normalise(lines[c]),
                    });
                }
                out.facts.push(HostFact {
                    index: i,
                    kind,
                    text: t,
                });
            }
            None if env_block => out.facts.push(HostFact {
                index: i,
                kind: FactKind::Template,
                text: t,
            }),
            None => {
                strong = false;
                out.unaccounted.push(i);
            }
        }
    }
    // captions nothing followed
    out.unaccounted.extend(pending_caption);
    out.unaccounted.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(text: &str) -> HostFacts {
        let lines: Vec<&str> = text.lines().collect();
        read(&lines)
    }

    #[test]
    fn lspci_listing_of_accelerators() {
        let f = facts(
            "PCI device detection:\n\nlspci -d 1002:75a3\n51:00.0 Processing accelerators: Advanced Micro Devices, Inc. [AMD/ATI] Device 75a3\n0000:52:00.0 3D controller [0302]: NVIDIA Corporation GA100 [A100 SXM4 40GB] [10de:20b1] (rev a1)\n\tSubsystem: NVIDIA Corporation Device 144e\n\tKernel driver in use: nvidia\n00:1f.2 SATA controller: Intel Corporation Device a102 (rev 09)\n",
        );
        assert!(f.all_clear(), "{f:#?}");
        assert_eq!(f.gpus.len(), 2);
        assert_eq!(f.gpus[0].vendor, GpuVendor::Amd);
        assert_eq!(f.gpus[1].vendor, GpuVendor::Nvidia);
        assert!(
            f.summary()
                .contains("2 GPU/accelerator(s) (amd x1, nvidia x1)"),
            "{}",
            f.summary()
        );
    }

    #[test]
    fn fallen_off_the_bus_is_a_failure() {
        let f = facts("3b:00.0 3D controller: NVIDIA Corporation Device 1eb8 (rev ff)\n");
        assert!(!f.all_clear());
        assert_eq!(f.failures, vec![0]);
        let f = facts("Filesystem Size Used Avail Use% Mounted on\n/dev/sda1 100G 100G 0 100% /\n");
        assert!(!f.all_clear());
    }

    #[test]
    fn k3s_environment_block() {
        let f = facts(
            "**Environmental Info:**\nK3s Version: \nOn both machines\n```\nk3s version v1.28.7+k3s1 (051b14b2)\ngo version go1.21.7\n```\n\nNode(s) CPU architecture, OS, and Version: \nServer: `Linux pi 6.5.0-1012-raspi #15-Ubuntu SMP PREEMPT_DYNAMIC Thu Feb 22 15:23:50 UTC 2024 aarch64 aarch64 aarch64 GNU/Linux`\n\nCluster Configuration:\n1 pi server and 1 agent client.\n",
        );
        assert!(f.all_clear(), "{f:#?}");
        assert!(f.versions.contains(&"k3s v1.28.7+k3s1".to_owned()));
    }

    #[test]
    fn the_bug_section_is_not_host_facts() {
        // a template with the environment and a description of what went wrong
        let f = facts(
            "**Environmental Info:**\nK3s Version: v1.28.7+k3s1\n\n**Describe the bug:**\nthe agent never shows up in the node list\n",
        );
        assert!(!f.all_clear());
        // the other section's heading and its text
        assert_eq!(f.unaccounted, vec![3, 4]);
        // failure words anywhere
        let f =
            facts("**Environmental Info:**\nK3s Version: v1.28.7+k3s1\nthe agent is NotReady\n");
        assert!(!f.all_clear());
        // prose alone, headings alone: no fact
        assert!(!facts("my pods are slow\n").all_clear());
        assert!(!facts("**Environmental Info:**\n").all_clear());
    }

    #[test]
    fn versions_os_release_and_tools() {
        let f = facts(
            "$ kubectl version\nClient Version: v1.28.2\nKustomize Version: v5.0.4-0.20230601165947-6ce0bf390ce3\nServer Version: v1.28.7+k3s1\n$ cat /etc/os-release\nPRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\n$ uname -a\nLinux node-1 5.15.0-91-generic #101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023 x86_64 x86_64 x86_64 GNU/Linux\n$ containerd --version\ncontainerd github.com/containerd/containerd v1.7.2 0cae528dd6cb557f7201036e9f43420650207b58\n$ nvidia-smi -L\nGPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5b2c3d4e-0000-0000-0000-000000000000)\n$ free -g\n               total        used        free      shared  buff/cache   available\nMem:             503          40         400           0          62         460\nSwap:              0           0           0\n",
        );
        assert!(f.all_clear(), "{f:#?}");
        assert!(f.versions.contains(&"server v1.28.7+k3s1".to_owned()));
        assert!(f.versions.contains(&"containerd v1.7.2".to_owned()));
    }

    #[test]
    fn unknown_lines_stay_unaccounted() {
        let f = facts(
            "lspci\n00:02.0 VGA compatible controller: Intel Corporation UHD Graphics 630\nsomething else entirely\n",
        );
        assert!(!f.all_clear());
        assert_eq!(f.unaccounted, vec![2]);
    }
}
