//! Position-store benchmarks: lookups (memory hit, Bloom-rejected miss, on-disk hit in a large
//! run, warm and cold), space per entry, measured Bloom false-positive rate, merge throughput.
//!
//! `cargo bench --bench store` (add `-- --quick` for a short run). The large run has
//! `ZUGZWANG_BENCH_ENTRIES` entries (default 100 million, about 940 MB) and is kept in
//! `target/store-bench/` between runs; delete that directory to rebuild it.

use criterion::{black_box, Criterion};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use zugzwang::game::Key;
use zugzwang::search::{Bounds, Table};
use zugzwang::store::entry::{Entry, Value};
use zugzwang::store::merge::{KMerge, Normalised};
use zugzwang::store::run_file::{write_run, Identity, Run, Verify};
use zugzwang::store::{Store, StoreConfig};

fn id() -> Identity {
    Identity {
        game: "bench".into(),
        variant: "uniform".into(),
        hash_seed: 1,
    }
}

/// xorshift64*: reproducible pseudo-random keys.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Sorted entries with uniformly random 62-bit keys (like 4x4x4 hashes): gaps of at least 2
/// between keys, so `key + 1` is never stored. Every value code occurs.
fn sorted_entries(n: u64, seed: u64) -> impl Iterator<Item = u64> {
    let mean_gap = ((1u64 << 61) / (n + 1)).max(4); // keys end near 2^61 < 2^62
    let mut rng = Rng(seed | 1);
    let mut key = 0u64;
    (0..n).map(move |_| {
        key += 2 + rng.next() % (2 * mean_gap - 4);
        Entry::new(Key::new(key), Value::from_code(rng.next() >> 62)).word()
    })
}

/// Opens (building it first if needed) the large run.
fn large_run(dir: &Path, n: u64) -> (PathBuf, Run, Option<f64>) {
    std::fs::create_dir_all(dir).unwrap();
    let name = format!("run-{n}.zzr");
    let path = dir.join(&name);
    let mut built = None;
    // SAFETY: the bench owns target/store-bench/ while it runs.
    let existing = unsafe { Run::open(&path, Some(&id()), Verify::Header) };
    let run = match existing {
        Ok(r) if r.len() == n => r,
        _ => {
            let _ = std::fs::remove_file(&path);
            eprintln!("building a run of {n} entries in {} ...", dir.display());
            let t = Instant::now();
            write_run(dir, &name, &id(), sorted_entries(n, 42).map(Ok), n).unwrap();
            built = Some(t.elapsed().as_secs_f64());
            // SAFETY: as above.
            unsafe { Run::open(&path, Some(&id()), Verify::Header) }.unwrap()
        }
    };
    (path, run, built)
}

/// Drops the run's pages from this process and from the page cache, so the next lookups read
/// the disk (as far as the machine lets us: a virtual disk may still be cached by its host).
fn evict(path: &Path, run: &Run) {
    use std::os::unix::io::AsRawFd;
    let base = run.entries().as_ptr() as usize - zugzwang::store::header::HEADER_LEN;
    let f = std::fs::File::open(path).unwrap();
    // SAFETY: MADV_DONTNEED on a read-only shared file mapping only drops page-table entries;
    // the contents come back from the file on the next access, unchanged.
    unsafe {
        libc::madvise(
            base as *mut libc::c_void,
            run.file_bytes() as usize,
            libc::MADV_DONTNEED,
        );
        libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
    }
}

/// Lookups of `keys` distinct random keys per batch, repeated. 2^20 keys touch far more cache
/// lines than the CPU caches hold, so "warm" means in the page cache but not in the CPU caches;
/// 4096 keys measure the lookup code with its memory already in the CPU caches.
fn lookups(c: &mut Criterion, run: &Run, path: &Path, keys: usize) {
    let n = run.len() as usize;
    let mut rng = Rng(7);
    let hits: Vec<Key> = (0..keys)
        .map(|_| Entry::from_word(run.entries()[rng.next() as usize % n]).key())
        .collect();
    let bloom = run.bloom();
    let misses: Vec<Key> = hits
        .iter()
        .map(|k| Key::new(k.get() + 1))
        .filter(|&k| !bloom.may_contain(k.get()))
        .collect();

    // memory layer: an exact entry found in the in-memory table (via the Store front door)
    let store = Store::memory_only(StoreConfig {
        mem_bytes: 256 << 20,
        ..StoreConfig::default()
    });
    let b = Bounds {
        lower: 3,
        upper: 3,
        best: Some(1),
    };
    for &k in &hits {
        store.store(k, b, 1000);
    }
    let mem_hits: Vec<Key> = hits
        .iter()
        .copied()
        .filter(|&k| store.probe(k).is_some())
        .collect();
    let mut g = c.benchmark_group("store-lookup");
    println!(
        "memory layer: {} of {} keys kept by the 256 MiB table",
        mem_hits.len(),
        hits.len()
    );
    g.throughput(criterion::Throughput::Elements(mem_hits.len() as u64));
    g.bench_function(format!("memory hit, {keys} keys"), |bch| {
        bch.iter(|| {
            for &k in &mem_hits {
                black_box(store.probe(black_box(k)));
            }
        })
    });
    g.throughput(criterion::Throughput::Elements(misses.len() as u64));
    g.bench_function(
        format!("bloom-rejected miss, {n} entries, {keys} keys"),
        |bch| {
            bch.iter(|| {
                for &k in &misses {
                    black_box(run.lookup(black_box(k)));
                }
            })
        },
    );
    // dependent chain: each lookup's key depends on the previous result (latency, not
    // throughput)
    g.bench_function(
        format!("bloom-rejected miss latency, {n} entries, {keys} keys"),
        |bch| {
            bch.iter(|| {
                let mut acc = 0u64;
                for &k in &misses {
                    acc = acc.wrapping_add(run.lookup(Key::new(k.get() + (acc >> 62))).0 as u64);
                }
                black_box(acc)
            })
        },
    );
    // "warm": every page these lookups touch is resident and mapped before timing starts
    for _ in 0..2 {
        for &k in &hits {
            black_box(run.lookup(k));
        }
    }
    g.throughput(criterion::Throughput::Elements(hits.len() as u64));
    g.bench_function(format!("disk hit warm, {n} entries, {keys} keys"), |bch| {
        bch.iter(|| {
            for &k in &hits {
                black_box(run.lookup(black_box(k)));
            }
        })
    });
    g.finish();

    // cold: evict, then time a batch of lookups of keys not touched since
    let mut total = Duration::ZERO;
    let mut count = 0u64;
    for round in 0..5 {
        evict(path, run);
        let mut rng = Rng(1000 + round);
        let keys: Vec<Key> = (0..500)
            .map(|_| hits[rng.next() as usize % hits.len()])
            .collect();
        let t = Instant::now();
        for &k in &keys {
            black_box(run.lookup(k));
        }
        total += t.elapsed();
        count += keys.len() as u64;
    }
    println!(
        "store-lookup/disk hit cold, {n} entries, keys from a set of {keys}: {:.1} us per lookup (mean of {count} after eviction)",
        total.as_secs_f64() * 1e6 / count as f64
    );
}

fn space(run: &Run) {
    let n = run.len();
    let bloom = run.bloom();
    let t = Instant::now();
    let fp = bloom.measured_fp_rate(10_000_000);
    println!(
        "space: {n} entries, file {} bytes = {:.3} bytes/entry (8 entry + {:.2} Bloom + header/padding); \
         Bloom {:.2} bits/key, {} hashes, fill {:.3}; measured false positives {:.3}% of 10M absent keys ({:.1} s); \
         in-memory fence {:.3} bytes/entry",
        run.file_bytes(),
        run.file_bytes() as f64 / n as f64,
        bloom.bits() as f64 / 8.0 / n as f64,
        bloom.bits() as f64 / n as f64,
        run.header().bloom_hashes,
        bloom.fill(),
        fp * 100.0,
        t.elapsed().as_secs_f64(),
        8.0 / 512.0
    );
}

fn merge_throughput(dir: &Path, per_run: u64, runs: u64) {
    let mut inputs = Vec::new();
    for i in 0..runs {
        let name = format!("merge-in-{i}.zzr");
        let _ = std::fs::remove_file(dir.join(&name));
        write_run(
            dir,
            &name,
            &id(),
            sorted_entries(per_run, 100 + 2 * i).map(Ok),
            per_run,
        )
        .unwrap();
        // SAFETY: the bench owns the directory.
        inputs.push(unsafe { Run::open(&dir.join(&name), Some(&id()), Verify::Header) }.unwrap());
    }
    let total = per_run * runs;
    let t = Instant::now();
    let slices: Vec<&[u64]> = inputs.iter().map(|r| r.entries()).collect();
    let out = write_run(
        dir,
        "merge-out.zzr",
        &id(),
        Normalised::new(KMerge::new(slices)),
        total,
    )
    .unwrap();
    let secs = t.elapsed().as_secs_f64();
    println!(
        "merge: {runs} runs x {per_run} entries -> {out} entries in {secs:.2} s = {:.0} M entries/min \
         (k-way merge, normalise, Bloom, xxh3, write, fsync)",
        total as f64 / secs * 60.0 / 1e6
    );
    for i in 0..runs {
        let _ = std::fs::remove_file(dir.join(format!("merge-in-{i}.zzr")));
    }
    let _ = std::fs::remove_file(dir.join("merge-out.zzr"));
}

fn main() {
    let mut c = Criterion::default()
        .configure_from_args()
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    let n: u64 = std::env::var("ZUGZWANG_BENCH_ENTRIES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000_000);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/store-bench");
    let (path, run, built) = large_run(&dir, n);
    if let Some(secs) = built {
        println!(
            "build: wrote {n} sorted entries in {secs:.1} s = {:.0} M entries/min",
            n as f64 / secs * 60.0 / 1e6
        );
    }
    space(&run);
    // a small key set (its cache lines stay in the CPU caches) and a large one (they do not)
    lookups(&mut c, &run, &path, 4096);
    lookups(&mut c, &run, &path, 1 << 20);
    merge_throughput(&dir, (n / 10).clamp(1000, 10_000_000), 4);
    c.final_summary();
}
