//! NVIDIA device-plugin sharing configs (time-slicing / MPS) found in pasted ConfigMaps: which
//! resource is shared and how many replicas each GPU should advertise.

use serde_json::Value;

use super::{Signal, SignalKind, details};

/// One `SharingConfig` signal per shared resource of every config key in `text`.
pub fn check(source: &str, text: &str) -> Vec<Signal> {
    let Ok(docs) = cube_model::yaml::from_multiple::<Value>(
        text,
        &cube_model::Limits::default(),
        serde_saphyr::Options::default(),
    ) else {
        return Vec::new();
    };
    let docs: Vec<&Value> = docs
        .iter()
        .flat_map(|d| match d.get("items").and_then(Value::as_array) {
            Some(items) => items.iter().collect::<Vec<_>>(),
            None => vec![d],
        })
        .collect();
    let mut out = Vec::new();
    for d in docs
        .into_iter()
        .filter(|d| d.get("kind").and_then(Value::as_str) == Some("ConfigMap"))
    {
        let cm = d
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let keys = d
            .get("data")
            .and_then(Value::as_object)
            .map_or(0, serde_json::Map::len);
        for (key, val) in d
            .get("data")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let Some(body) = val.as_str() else { continue };
            let Ok(cfg) = cube_model::yaml::from_str::<Value>(
                body,
                &cube_model::Limits::default(),
                serde_saphyr::Options::default(),
            ) else {
                continue;
            };
            let mut signals = config_signals(&cfg, source, text, &cm, key);
            for sig in &mut signals {
                sig.details.insert("keys".to_owned(), keys.to_string());
            }
            out.extend(signals);
        }
    }
    out
}

/// The `SharingConfig` signals of one parsed config (`version: v1` / `sharing:` document):
/// one per resource of `sharing.timeSlicing` and `sharing.mps`. `cm` and `key` name the
/// ConfigMap and data key holding it (empty for a config pasted on its own).
fn config_signals(cfg: &Value, source: &str, text: &str, cm: &str, key: &str) -> Vec<Signal> {
    let mut out = Vec::new();
    for mode in ["timeSlicing", "mps"] {
        for r in cfg
            .pointer(&format!("/sharing/{mode}/resources"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = r
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let replicas = match r.get("replicas") {
                Some(Value::Number(n)) => n.to_string(),
                Some(Value::String(s)) => s.clone(),
                _ => continue,
            };
            let line = text
                .lines()
                .position(|l| l.contains("replicas"))
                .map_or(1, |i| i + 1);
            let what = if cm.is_empty() {
                "sharing config".to_owned()
            } else {
                format!("ConfigMap {cm} key {key}")
            };
            out.push(Signal {
                kind: SignalKind::SharingConfig,
                source: source.to_owned(),
                line,
                text: format!("{what}: {mode} {name} replicas {replicas}"),
                join: false,
                object: None,
                details: details(&[
                    ("configmap", cm.to_owned()),
                    ("key", key.to_owned()),
                    ("mode", mode.to_owned()),
                    ("resource", name),
                    ("replicas", replicas),
                ]),
            });
        }
    }
    out
}

/// A device-plugin sharing config pasted on its own, not inside a ConfigMap (a documentation
/// snippet, a file shown with `cat`, the indented value of a ConfigMap key whose head was not
/// pasted): the block from a `sharing:` line through the lines indented below it (NVIDIA
/// k8s-device-plugin api/config/v1 `Sharing`: `timeSlicing` / `mps` with `resources[].name`
/// and `replicas`).
pub fn check_bare(source: &str, text: &str) -> Vec<Signal> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.trim() != "sharing:" {
            continue;
        }
        let base = indent(l);
        let block: Vec<&str> = std::iter::once(*l)
            .chain(
                lines[i + 1..]
                    .iter()
                    .copied()
                    .take_while(|n| n.trim().is_empty() || indent(n) > base),
            )
            .collect();
        let yaml: String = block
            .iter()
            .map(|b| b.get(base..).unwrap_or("").trim_end())
            .collect::<Vec<_>>()
            .join("\n");
        let Ok(cfg) = cube_model::yaml::from_str::<Value>(
            &yaml,
            &cube_model::Limits::default(),
            serde_saphyr::Options::default(),
        ) else {
            continue;
        };
        out.extend(config_signals(&cfg, source, text, "", ""));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn time_slicing_in_a_list() {
        let t = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: dp\n  data:\n    ts: |-\n      version: v1\n      sharing:\n        timeSlicing:\n          resources:\n          - name: nvidia.com/gpu\n            replicas: 4\n";
        let s = super::check("x", t);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].detail("key"), s[0].detail("replicas")), ("ts", "4"));
        assert!(super::check("x", &t.replace("timeSlicing", "other")).is_empty());
    }

    #[test]
    fn a_config_pasted_without_its_configmap() {
        let t = "    sharing:\n      timeSlicing:\n        resources:\n        - name: nvidia.com/gpu\n          replicas: 4\n```\n\n```bash\nkubectl create -n gpu-operator -f time-slicing-config-all.yaml\n";
        let s = super::check_bare("x", t);
        assert_eq!(s.len(), 1, "{s:#?}");
        assert_eq!(
            (s[0].detail("resource"), s[0].detail("replicas")),
            ("nvidia.com/gpu", "4")
        );
        assert!(super::check_bare("x", "sharing: nothing here\n").is_empty());
    }
}
