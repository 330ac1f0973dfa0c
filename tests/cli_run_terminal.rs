//! `fray run` in a real terminal: tmux gives it a pseudo-terminal, so rustyline edits the line,
//! completes with Tab and keeps history, as a GM at the table would use it. Skipped, with a
//! message, only when tmux is not installed (`.ci/run` installs it).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of its own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-J", "-S", "-200", "-t", "fray"])
    }

    /// Waits until the screen shows `text` (the terminal is slow to redraw on a busy machine).
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the terminal never showed {text:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn keys(&self, keys: &[&str]) {
        // Let the line editor take the terminal first: keys typed ahead while it switches the
        // terminal's mode can be dropped, as at any line editor.
        std::thread::sleep(Duration::from_millis(150));
        let mut args = vec!["send-keys", "-t", "fray"];
        args.extend_from_slice(keys);
        self.run(&args);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

#[test]
fn the_tracker_edits_completes_and_answers_in_a_real_terminal() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed, so fray run was not tried in a real terminal");
        return;
    }
    let dir = std::env::temp_dir().join(format!("fray-tty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cnc/bench.toml");
    let command = format!(
        "{} run {} --seed 12 --autosave {}",
        env!("CARGO_BIN_EXE_fray"),
        bench.display(),
        dir.join("tty.jsonl").display()
    );
    let tmux = Tmux {
        socket: format!("fray-test-{}", std::process::id()),
    };
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "fray",
        "-x",
        "200",
        "-y",
        "50",
        &command,
    ]);
    tmux.wait_for("Fighter 1> ");
    // Tab completes a command word.
    tmux.keys(&["aut", "Tab"]);
    tmux.wait_for("Fighter 1> auto");
    tmux.keys(&[" side:orcs", "Enter"]);
    tmux.wait_for("fray plays 8 combatant(s)");
    // Line editing: a typo fixed with Backspace before Enter.
    tmux.keys(&["charge orc-2", "BSpace", "1", "Enter"]);
    tmux.wait_for("Fighter 1 announces charge orc-1");
    // One line at a time, each after its prompt (keys typed ahead may be dropped while the
    // terminal is switched between lines, as at any line editor).
    for next in ["? Fighter 3:", "? Fighter 4:", "? Fighter 1: roll"] {
        tmux.keys(&["none", "Enter"]);
        tmux.wait_for(next);
    }
    tmux.wait_for("Fighter 1: roll 1d10 for initiative");
    tmux.keys(&["d10 7", "Enter"]);
    tmux.wait_for("Fighter 1 initiative (CNC-R2.1): 7");
    // History: Up brings back the last line.
    tmux.keys(&["Up"]);
    tmux.wait_for("Fighter 2> d10 7");
    tmux.keys(&["BSpace", "4", "Enter"]);
    tmux.wait_for("Fighter 2 initiative (CNC-R2.1): 4");
    tmux.keys(&["undo", "Enter"]);
    tmux.wait_for("taken back");
    tmux.keys(&["quit", "Enter"]);
    let start = Instant::now();
    while !dir.join("tty.jsonl").exists() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let saved = std::fs::read_to_string(dir.join("tty.jsonl")).expect("autosaved");
    // The person's answers: 4 declarations and Fighter 1's initiative (Fighter 2's was taken
    // back); fray's are the orcs' declarations.
    let typed: Vec<&str> = saved
        .lines()
        .filter(|l| l.contains(r#""by":"person""#))
        .collect();
    assert_eq!(typed.len(), 5, "{saved}");
    assert!(typed[4].contains(r#"{"roll":7}"#), "{saved}");
    assert!(saved.contains(r#"{"choice":"charge orc-1"}"#), "{saved}");
}
