//! MIG texts read together: a MIG strategy chosen (`--set mig.strategy=mixed`, the plugin's
//! `--mig-strategy` / `migStrategy`, GPU feature discovery's `nvidia.com/mig.strategy` label)
//! concludes only when the same text shows the GPU without MIG devices, and the MIG manager's
//! `nvidia.com/mig.config.state` label concludes only when it is `failed` (or `pending` /
//! `rebooting` next to a GPU without MIG devices).
//!
//! What says "no MIG devices" (as the tools print it):
//! - `nvidia-smi -L`: `GPU 0: NVIDIA A30 (UUID: GPU-...)` rows, and for every MIG device an
//!   indented `MIG 1g.6gb Device 0: (UUID: MIG-...)` row (`MIG 1g.6gb     Device  0:` in some
//!   drivers); GPU rows without any MIG row are GPUs without MIG devices;
//! - the `nvidia-smi` table: the third cell of a GPU's second row is the `MIG M.` column
//!   (`Disabled`, `Enabled`, `N/A`); under `MIG devices:` the table prints
//!   `No MIG devices found` when MIG mode is on without instances;
//! - `nvidia-smi mig -lgi` / `-lci`: `No GPU instances found` / `No compute instances found`.

use super::{Signal, SignalKind};

/// Catalog entries of a chosen MIG strategy (placeholder `strategy`).
const STRATEGY: &[&str] = &[
    "nvidia.mig-strategy-no-devices",
    "nvidia.mig-strategy-flag-no-devices",
    "nvidia.mig-strategy-config-no-devices",
];

/// Catalog entries of the MIG manager's state label (placeholder `state`).
const STATE: &[&str] = &[
    "nvidia.mig-config-state-failed",
    "nvidia.mig-config-state-failed-yaml",
];

/// What in `text` says a GPU has no MIG devices, in words for the finding; `None` when the
/// text shows MIG devices or says nothing either way.
pub(crate) fn no_mig_devices(text: &str) -> Option<String> {
    let mut gpus: Vec<String> = Vec::new();
    let mut mig_rows = 0usize;
    let mut disabled = 0usize;
    let mut enabled = 0usize;
    let mut none_found: Option<&str> = None;
    let mut table = false;
    for l in text.lines() {
        let t = l.trim().trim_matches('`');
        if t.contains("MIG M.") {
            table = true;
        }
        if let Some(rest) = t.strip_prefix("GPU ")
            && let Some((idx, after)) = rest.split_once(": ")
            && idx.chars().all(|c| c.is_ascii_digit())
            && after.contains("(UUID: GPU-")
        {
            let name = after.split(" (UUID").next().unwrap_or("").trim();
            gpus.push(name.to_owned());
            continue;
        }
        if t.starts_with("MIG ") && (t.contains("(UUID: MIG-") || t.contains("Device")) {
            mig_rows += 1;
            continue;
        }
        for phrase in [
            "No MIG devices found",
            "No GPU instances found",
            "No compute instances found",
        ] {
            if t.contains(phrase) {
                none_found.get_or_insert(phrase);
            }
        }
        if table && t.starts_with('|') {
            let cells: Vec<&str> = t.trim_matches('|').split('|').map(str::trim).collect();
            if let Some(last) = cells.get(2) {
                if last.ends_with("Disabled") {
                    disabled += 1;
                } else if last.ends_with("Enabled") {
                    enabled += 1;
                }
            }
        }
    }
    if mig_rows > 0 {
        return None;
    }
    if let Some(p) = none_found {
        return Some(format!("the output says `{p}`"));
    }
    if disabled > 0 && enabled == 0 {
        return Some(format!(
            "nvidia-smi shows MIG mode Disabled on {disabled} GPU(s) in the `MIG M.` column"
        ));
    }
    // `nvidia-smi -L` names the GPUs: only MIG-capable ones can be missing MIG devices (GFD
    // labels every node with the strategy, so a T4 listed next to `mig.strategy=single` is
    // no MIG problem)
    if !gpus.is_empty() && !table && gpus.iter().any(|g| mig_capable(g)) {
        let mut names = gpus.clone();
        names.dedup();
        return Some(format!(
            "nvidia-smi -L lists {} GPU(s) ({}) and no MIG device",
            gpus.len(),
            names.join(", ")
        ));
    }
    None
}

/// GPU products that support MIG (NVIDIA's MIG user guide, "Supported GPUs": A30, A100 /
/// A800, H100 / H800 / H200 / H20, GH200, B200 / B100 / GB200, RTX PRO 6000 Blackwell), matched
/// on the model in a product name (`NVIDIA A100-SXM4-80GB`, `NVIDIA H100 80GB HBM3`).
fn mig_capable(name: &str) -> bool {
    const MODELS: &[&str] = &[
        "A30", "A100", "A800", "H100", "H800", "H200", "H20", "GH200", "B200", "B100", "GB200",
        "B300", "GB300",
    ];
    name.contains("RTX PRO 6000")
        || name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| MODELS.contains(&w))
}

/// See the module docs; applied to the signals of one text.
pub(crate) fn in_context(out: &mut Vec<Signal>, text: &str) {
    let ours = |s: &Signal| {
        s.kind == SignalKind::Known
            && (STRATEGY.contains(&s.detail("entry")) || STATE.contains(&s.detail("entry")))
    };
    if !out.iter().any(ours) {
        return;
    }
    // GFD's own label says the GPUs cannot do MIG
    let evidence = no_mig_devices(text).filter(|_| {
        !text.contains("mig.capable=false") && !text.contains("mig.capable: \"false\"")
    });
    out.retain_mut(|s| {
        if !ours(s) {
            return true;
        }
        if STRATEGY.contains(&s.detail("entry")) {
            let strategy = s
                .detail("strategy")
                .trim_matches(|c: char| matches!(c, '"' | '\'' | ',' | '`'))
                .to_ascii_lowercase();
            let Some(e) = evidence.as_ref() else {
                return false;
            };
            if !matches!(strategy.as_str(), "mixed" | "single") {
                return false;
            }
            s.details.insert("strategy".to_owned(), strategy);
            s.details.insert("evidence".to_owned(), e.clone());
            return true;
        }
        let state = s
            .detail("state")
            .trim_matches(|c: char| matches!(c, '"' | '\'' | ',' | '`'))
            .to_ascii_lowercase();
        match state.as_str() {
            "failed" => true,
            "pending" | "rebooting" if evidence.is_some() => {
                s.details
                    .insert("severity".to_owned(), "warning".to_owned());
                true
            }
            _ => false,
        }
    });
}

#[cfg(test)]
mod tests {
    use super::no_mig_devices;
    use crate::classify::classify_all;

    #[test]
    fn evidence_of_no_mig_devices() {
        let smi_l = "GPU 0: NVIDIA A30 (UUID: GPU-00000000-0000-0000-0000-000000000000)\n";
        assert!(no_mig_devices(smi_l).unwrap().contains("NVIDIA A30"));
        let with_mig = "GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-0)\n  MIG 1g.5gb      Device  0: (UUID: MIG-0)\n";
        assert_eq!(no_mig_devices(with_mig), None);
        let table = "| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n|                               |                      |               MIG M. |\n|===============================+======================+======================|\n|   0  NVIDIA A30          On   | 00000000:17:00.0 Off |                    0 |\n| N/A   33C    P0    31W / 165W |      0MiB / 24258MiB |      0%      Default |\n|                               |                      |             Disabled |\n";
        assert!(no_mig_devices(table).unwrap().contains("Disabled"));
        let enabled = table.replace("Disabled", " Enabled")
            + "| MIG devices:                                                                |\n|  No MIG devices found                                                       |\n";
        assert!(
            no_mig_devices(&enabled)
                .unwrap()
                .contains("No MIG devices found")
        );
        assert_eq!(no_mig_devices("nothing here\n"), None);
        // a GPU without MIG support is not missing MIG devices
        assert_eq!(
            no_mig_devices("GPU 0: Tesla T4 (UUID: GPU-00000000-0000-0000-0000-000000000000)\n"),
            None
        );
        assert!(no_mig_devices("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)\n").is_some());
    }

    #[test]
    fn strategy_concludes_only_with_a_gpu_without_mig_devices() {
        let helm = "helm install --wait --generate-name -n gpu-operator nvidia/gpu-operator --set mig.strategy=mixed\n";
        let rule = |t: &str| {
            classify_all("p", t)
                .into_iter()
                .filter(|s| s.detail("entry").starts_with("nvidia.mig-"))
                .collect::<Vec<_>>()
        };
        assert!(rule(helm).is_empty(), "a strategy alone says nothing");
        let smi = "GPU 0: NVIDIA A30 (UUID: GPU-00000000-0000-0000-0000-000000000000)\n";
        let s = rule(&format!("{helm}{smi}"));
        assert_eq!(s.len(), 1, "{s:#?}");
        assert_eq!(s[0].detail("strategy"), "mixed");
        assert!(s[0].detail("evidence").contains("NVIDIA A30"));
        // the plugin's flag and config field, GFD's label
        for t in [
            "--mig-strategy=single\n",
            "  migStrategy: mixed\n",
            "nvidia.com/mig.strategy=mixed\n",
        ] {
            assert_eq!(rule(&format!("{t}{smi}")).len(), 1, "{t}");
        }
        // strategy none, or a GPU with MIG devices: nothing
        assert!(rule(&format!("--set mig.strategy=none\n{smi}")).is_empty());
        assert!(
            rule(&format!(
                "{helm}GPU 0: NVIDIA A30 (UUID: GPU-0)\n  MIG 2g.12gb Device 0: (UUID: MIG-0)\n"
            ))
            .is_empty()
        );
        // the MIG manager's state label
        assert_eq!(rule("nvidia.com/mig.config.state=failed\n").len(), 1);
        assert!(rule("nvidia.com/mig.config.state=success\n").is_empty());
        assert!(rule("nvidia.com/mig.config.state: pending\n").is_empty());
        let pending = rule(&format!("nvidia.com/mig.config.state: pending\n{smi}"));
        assert_eq!(pending[0].detail("severity"), "warning");
    }
}
