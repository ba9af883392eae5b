//! `zugzwang-verify`: independent audits of what zugzwang computes.
fn main() {
    eprintln!("zugzwang-verify: no audits yet");
    std::process::exit(2);
}
