//! The stability policy of the README ("Stability (0.x)"): every public enum of the four library
//! crates is `#[non_exhaustive]`, so adding a variant is not a breaking change for users who match
//! on it. This test reads the crates' sources and fails on an enum that lacks the attribute.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_public_enum_is_non_exhaustive() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in ["cube-model", "cube-quota", "cube-cluster", "cube-diagnose"] {
        rust_files(&root.join(krate).join("src"), &mut files);
    }
    assert!(
        files.len() > 20,
        "sources not found under {}",
        root.display()
    );
    let mut missing = Vec::new();
    let mut enums = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if !line.trim_start().starts_with("pub enum ") {
                continue;
            }
            enums += 1;
            // The attribute block directly above the item (attributes and doc comments).
            let mut j = i;
            let mut found = false;
            while j > 0 {
                j -= 1;
                let above = lines[j].trim();
                if above.starts_with("#[non_exhaustive]") {
                    found = true;
                    break;
                }
                // Stop at the end of the previous item: a blank line or a line closing a statement.
                if above.is_empty()
                    || above.ends_with('}')
                    || above.ends_with(';')
                    || above.ends_with('{')
                {
                    break;
                }
            }
            if !found {
                missing.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        enums > 50,
        "expected the crates' public enums, found {enums}"
    );
    assert!(
        missing.is_empty(),
        "public enums without #[non_exhaustive] (README, Stability (0.x)):\n{}",
        missing.join("\n")
    );
}
