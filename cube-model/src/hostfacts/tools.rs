//! Output of the accelerator self-checks people paste to show a GPU or NPU works: CUDA's
//! `deviceQuery`, Huawei's `npu-smi info` table and PaddlePaddle's `run_check()`. Each is read
//! as a block: its lines are the tool's, whatever words they hold (`Device has ECC support:
//! Disabled` is no failure), and the block says itself whether the check passed:
//!
//! - `deviceQuery` (NVIDIA/cuda-samples Samples/1_Utilities/deviceQuery/deviceQuery.cpp):
//!   `./deviceQuery Starting...`, ` CUDA Device Query (Runtime API) version (CUDART static
//!   linking)`, `Detected %d CUDA Capable device(s)`, `Device %d: "%s"` and its indented
//!   properties, `> Peer access ...` lines, `deviceQuery, CUDA Driver = CUDART, ...`, and
//!   `Result = PASS`; it fails with `cudaGetDeviceCount returned %d` / `-> %s` /
//!   `Result = FAIL`, or `There are no available device(s) that support CUDA`;
//! - `npu-smi info` (Huawei Ascend driver tools; the table as 23.x-26.x print it): `+---+` /
//!   `+===+` rules and `|`-delimited rows under the `| npu-smi <version>  Version: <version> |`
//!   banner; the `Health` column of every NPU row must read `OK` (`Warning`, `Alarm`,
//!   `Critical` are failures); the process table's `No running processes found in NPU <n>`;
//! - PaddlePaddle `paddle.utils.run_check()` (PaddlePaddle/Paddle python/paddle/utils/
//!   install_check.py): `Running verify PaddlePaddle program ... `, the framework's glog info
//!   lines (`I1017 11:12:41.262614 57120 interpretercore.cc:235] ...`), Python warnings
//!   (`<file>.py:<line>: UserWarning: ...` and the source line after it), `PaddlePaddle works
//!   well on 1 NPU.`, `PaddlePaddle works well on 2 GPUs.`, `PaddlePaddle is installed
//!   successfully! ...`; it fails with `PaddlePaddle meets some problem with ...`, `Original
//!   Error is: ...`, `... installed successfully ONLY for single ...`, or a traceback.
//!
//! A block that neither passed nor failed (cut before its verdict) accounts for nothing.

/// The tools read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tool {
    DeviceQuery,
    NpuSmi,
    PaddleRunCheck,
}

impl Tool {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Tool::DeviceQuery => "deviceQuery",
            Tool::NpuSmi => "npu-smi info",
            Tool::PaddleRunCheck => "PaddlePaddle run_check",
        }
    }
}

/// One tool's output in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    pub(crate) tool: Tool,
    /// Index of the block's first line.
    pub(crate) start: usize,
    /// Lines of the block (indices), failures included.
    pub(crate) lines: Vec<usize>,
    /// Lines that say the check failed.
    pub(crate) failures: Vec<usize>,
    /// What it showed (`1 CUDA device: NVIDIA Tegra X1`).
    pub(crate) summary: String,
}

fn fence(t: &str) -> bool {
    !t.is_empty() && t.chars().all(|c| matches!(c, '`' | '~'))
}

/// Every block of `lines`, in order.
pub(crate) fn blocks(lines: &[&str]) -> Vec<Block> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim();
        let found = if t.contains("deviceQuery Starting") || t.contains("CUDA Device Query (") {
            device_query(lines, i)
        } else if npu_smi_start(lines, i) {
            npu_smi(lines, i)
        } else if paddle_start(t) {
            paddle(lines, i)
        } else {
            None
        };
        match found {
            Some(b) => {
                i = b.lines.last().map_or(i + 1, |l| l + 1).max(i + 1);
                out.push(b);
            }
            None => i += 1,
        }
    }
    out
}

fn device_query(lines: &[&str], start: usize) -> Option<Block> {
    let mut b = Block {
        tool: Tool::DeviceQuery,
        start,
        lines: Vec::new(),
        failures: Vec::new(),
        summary: String::new(),
    };
    let mut devices: Vec<String> = Vec::new();
    let mut verdict = false;
    for (i, raw) in lines.iter().enumerate().skip(start) {
        let t = raw.trim();
        if t.is_empty() || fence(t) {
            continue;
        }
        let failed = t.starts_with("cudaGetDeviceCount returned")
            || t.starts_with("-> ")
            || t == "Result = FAIL"
            || t.starts_with("There are no available device(s) that support CUDA");
        let ok = failed
            || t.contains("deviceQuery Starting")
            || t.contains("CUDA Device Query (")
            || (t.starts_with("Detected ") && t.contains("CUDA Capable device"))
            || t.starts_with("deviceQuery, CUDA Driver")
            || t == "Result = PASS"
            || t.starts_with("> Peer access")
            || t.starts_with("> ")
            || (t.starts_with("Device ") && t.contains(": \""))
            || raw.starts_with([' ', '\t']);
        if !ok {
            break;
        }
        if t.starts_with("Device ")
            && let Some(name) = t.split('"').nth(1)
        {
            devices.push(name.to_owned());
        }
        b.lines.push(i);
        if failed {
            b.failures.push(i);
            verdict = true;
        }
        if t.starts_with("Result = ") {
            verdict = true;
            break;
        }
    }
    // a listing cut before its verdict still shows the devices it detected
    if !verdict && devices.is_empty() {
        return None;
    }
    let mut names = devices.clone();
    names.dedup();
    b.summary = if b.failures.is_empty() {
        format!("{} CUDA device(s): {}", devices.len(), names.join(", "))
    } else {
        "no usable CUDA device".to_owned()
    };
    Some(b)
}

fn npu_smi_start(lines: &[&str], i: usize) -> bool {
    let banner = |t: &str| t.starts_with('|') && t.contains("npu-smi ") && t.contains("Version:");
    let t = lines[i].trim();
    banner(t) || (t.starts_with('+') && lines.get(i + 1).is_some_and(|n| banner(n.trim())))
}

fn npu_smi(lines: &[&str], start: usize) -> Option<Block> {
    let mut b = Block {
        tool: Tool::NpuSmi,
        start,
        lines: Vec::new(),
        failures: Vec::new(),
        summary: String::new(),
    };
    let mut health_col: Option<usize> = None;
    let mut npus = 0usize;
    for (i, raw) in lines.iter().enumerate().skip(start) {
        let t = raw.trim();
        if t.is_empty() || fence(t) {
            continue;
        }
        if t.starts_with('+') && t.chars().all(|c| matches!(c, '+' | '-' | '=')) {
            b.lines.push(i);
            continue;
        }
        if !t.starts_with('|') {
            break;
        }
        b.lines.push(i);
        let cells: Vec<&str> = t.trim_matches('|').split('|').map(str::trim).collect();
        if let Some(c) = cells
            .iter()
            .position(|c| c.split_whitespace().next() == Some("Health"))
        {
            health_col = Some(c);
            continue;
        }
        let lower = t.to_lowercase();
        if lower.contains("error") || lower.contains("failed") {
            b.failures.push(i);
            continue;
        }
        let (Some(col), Some(first)) = (health_col, cells.first()) else {
            continue;
        };
        // an NPU row: `| 0     Ascend910   | OK   | ...` (its second row has the bus id there)
        if first
            .split_whitespace()
            .next()
            .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()))
            && let Some(health) = cells.get(col)
            && !health.is_empty()
            && health.chars().all(|c| c.is_ascii_alphabetic())
        {
            npus += 1;
            if !health.eq_ignore_ascii_case("OK") {
                b.failures.push(i);
            }
        }
    }
    // no `Health` header: not an npu-smi table
    health_col?;
    b.summary = format!(
        "{npus} NPU chip(s), {}",
        if b.failures.is_empty() {
            "all Health OK"
        } else {
            "not all healthy"
        }
    );
    Some(b)
}

fn paddle_start(t: &str) -> bool {
    t.contains("run_check()") && t.contains("paddle")
        || t.starts_with("Running verify PaddlePaddle program")
}

/// `path.py:189: UserWarning: ...` (Python's warnings.formatwarning).
fn python_warning(t: &str) -> bool {
    let Some((head, rest)) = t.split_once(": ") else {
        return false;
    };
    let category = rest.split(':').next().unwrap_or("");
    head.contains(".py:")
        && head
            .rsplit(':')
            .next()
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
        && category.ends_with("Warning")
        && !category.contains(' ')
}

/// A glog / klog info line (`I1017 11:12:41.262614 57120 interpretercore.cc:235] ...`).
fn glog_info(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() > 6 && b[0] == b'I' && b[1..5].iter().all(u8::is_ascii_digit) && t.contains("] ")
}

/// GNU grep (2.21+) when GREP_OPTIONS is set in the shell's profile: harmless.
const GREP_OPTIONS: &str =
    "grep: warning: GREP_OPTIONS is deprecated; please use an alias or script";

/// The first line of the preamble before `Running verify PaddlePaddle program` (the command,
/// the shell's and Python's warnings printed while paddle imports).
fn paddle_preamble(lines: &[&str], start: usize) -> usize {
    let mut first = start;
    let mut j = start;
    while j > 0 {
        j -= 1;
        let t = lines[j].trim();
        if t.is_empty() || fence(t) {
            continue;
        }
        let warned_before = lines[..j]
            .iter()
            .rev()
            .map(|l| l.trim())
            .find(|l| !l.is_empty())
            .filter(|l| python_warning(l))
            .is_some_and(|w| w.contains(t.trim_matches(|c: char| c == '"' || c.is_whitespace())));
        if !(python_warning(t)
            || t == GREP_OPTIONS
            || paddle_start(t)
            || glog_info(t)
            || warned_before)
        {
            break;
        }
        first = j;
    }
    first
}

fn paddle(lines: &[&str], start: usize) -> Option<Block> {
    let start = paddle_preamble(lines, start);
    let mut b = Block {
        tool: Tool::PaddleRunCheck,
        start,
        lines: Vec::new(),
        failures: Vec::new(),
        summary: String::new(),
    };
    let mut verdict = false;
    // the line Python prints after a warning is the source line that raised it (here often
    // the message literal itself, which the paste reader may have unquoted)
    let mut after_warning: Option<String> = None;
    let mut works: Vec<String> = Vec::new();
    for (i, raw) in lines.iter().enumerate().skip(start) {
        let t = raw.trim();
        if t.is_empty() || fence(t) {
            continue;
        }
        let failed = t.contains("PaddlePaddle meets some problem")
            || t.contains("Original Error is")
            || t.contains("successfully ONLY for single")
            || t.starts_with("Traceback (most recent call last)");
        let warning = python_warning(t);
        let ok = failed
            || warning
            || after_warning.as_deref().is_some_and(|w| {
                raw.starts_with([' ', '\t'])
                    || w.contains(t.trim_matches(|c: char| c == '"' || c.is_whitespace()))
            })
            || paddle_start(t)
            || t.starts_with("Running verify PaddlePaddle program")
            || t.starts_with("PaddlePaddle works well on")
            || t.starts_with("PaddlePaddle is installed successfully!")
            || glog_info(t)
            || t == GREP_OPTIONS;
        if !ok {
            break;
        }
        after_warning = warning.then(|| t.to_owned());
        b.lines.push(i);
        if failed {
            b.failures.push(i);
            verdict = true;
        }
        if let Some(rest) = t.strip_prefix("PaddlePaddle works well on ") {
            works.push(rest.trim_end_matches('.').to_owned());
        }
        if t.starts_with("PaddlePaddle is installed successfully!") {
            verdict = true;
            break;
        }
    }
    if !verdict {
        return None;
    }
    b.summary = if b.failures.is_empty() {
        format!("works well on {}", works.join(", "))
    } else {
        "reports a problem".to_owned()
    };
    Some(b)
}

#[cfg(test)]
mod tests {
    use crate::hostfacts::read;

    fn lines(t: &str) -> Vec<&str> {
        t.lines().collect()
    }

    /// NVIDIA/k8s-device-plugin#377 (Jetson Nano, k3s), shortened.
    const DEVICE_QUERY: &str = "Now the container in k3s works and returns:\n```\nroot@node-01:~# kubectl logs nvidia-query\n./deviceQuery Starting...\n\n CUDA Device Query (Runtime API) version (CUDART static linking)\n\nDetected 1 CUDA Capable device(s)\n\nDevice 0: \"NVIDIA Tegra X1\"\n  CUDA Driver Version / Runtime Version          10.2 / 10.2\n  Total amount of global memory:                 3963 MBytes (4155203584 bytes)\n  Device has ECC support:                        Disabled\n  Compute Mode:\n     < Default (multiple host threads can use ::cudaSetDevice() with device simultaneously) >\n\ndeviceQuery, CUDA Driver = CUDART, CUDA Driver Version = 10.2, CUDA Runtime Version = 10.2, NumDevs = 1\nResult = PASS\n";

    #[test]
    fn device_query_pass_and_fail() {
        let h = read(&lines(DEVICE_QUERY));
        assert!(h.all_clear(), "{h:#?}");
        assert!(h.summary().contains("NVIDIA Tegra X1"), "{}", h.summary());
        let fail = "./deviceQuery Starting...\n\n CUDA Device Query (Runtime API) version (CUDART static linking)\n\ncudaGetDeviceCount returned 100\n-> no CUDA-capable device is detected\nResult = FAIL\n";
        let h = read(&lines(fail));
        assert!(!h.all_clear());
        assert_eq!(h.failures.len(), 3, "{h:#?}");
        // cut before any device and verdict: not read as a self-check
        assert!(!read(&lines("./deviceQuery Starting...\n")).all_clear());
    }

    /// gpustack/gpustack#1514 (310P3) and a 910 table of npu-smi 26.0.rc2.
    const NPU_SMI: &str = "(base) [root@localhost ~]# npu-smi info\n+--------------------------------------------------------------------------------------------------------+\n| npu-smi 24.1.rc3                                 Version: 24.1.rc3                                     |\n+-------------------------------+-----------------+------------------------------------------------------+\n| NPU     Name                  | Health          | Power(W)     Temp(C)           Hugepages-Usage(page) |\n| Chip    Device                | Bus-Id          | AICore(%)    Memory-Usage(MB)                        |\n+===============================+=================+======================================================+\n| 1       310P3                 | OK              | NA           78                0     / 0             |\n| 0       0                     | 0000:01:00.0    | 0            1240 / 44280                            |\n+-------------------------------+-----------------+------------------------------------------------------+\n| NPU     Chip                  | Process id    | Process name             | Process memory(MB)      |\n+===============================+===============+====================================================+\n| No running processes found in NPU 1                                                                    |\n+===============================+===============+====================================================+\n";

    #[test]
    fn npu_smi_health() {
        let h = read(&lines(NPU_SMI));
        assert!(h.all_clear(), "{h:#?}");
        assert!(
            h.summary().contains("1 NPU chip(s), all Health OK"),
            "{}",
            h.summary()
        );
        let alarm = NPU_SMI.replace("| OK              |", "| Alarm           |");
        let h = read(&lines(&alarm));
        assert!(!h.all_clear());
        assert_eq!(h.failures.len(), 1, "{h:#?}");
        // npu-smi's own error is no table: never all clear
        assert!(
            !read(&lines(
                "npu-smi info\ndcmi module initialize failed. ret is -8005\n"
            ))
            .all_clear()
        );
    }

    /// A Paddle run_check on an Ascend NPU (PaddleSeg), with the shell's and Python's warnings.
    #[test]
    fn paddle_run_check() {
        let ok = "python -c \"import paddle; paddle.utils.run_check()\"\n\ngrep: warning: GREP_OPTIONS is deprecated; please use an alias or script\n/opt/conda/lib/python3.7/site-packages/paddle/fluid/framework.py:189: UserWarning: We will fallback into legacy dygraph on NPU devices.\n  \"We will fallback into legacy dygraph on NPU devices.\"\nRunning verify PaddlePaddle program ... \nI1017 11:12:41.262614 57120 interpretercore.cc:235] New Executor is Running.\nPaddlePaddle works well on 1 NPU.\nPaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now.\n";
        let h = read(&lines(ok));
        assert!(h.all_clear(), "{h:#?}");
        let bad = "Running verify PaddlePaddle program ... \nPaddlePaddle works well on 1 GPU.\nPaddlePaddle meets some problem with 4 GPUs. This may be caused by:\n 1. There is not enough GPUs visible on your system\nPaddlePaddle is installed successfully ONLY for single GPU! Let's start deep learning with PaddlePaddle now.\n";
        let h = read(&lines(bad));
        assert!(!h.all_clear(), "{h:#?}");
        // a Python warning alone is no self-check
        assert!(!read(&lines("x.py:1: UserWarning: something\n")).all_clear());
    }
}
