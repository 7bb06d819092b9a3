//! Move generation and the referee step allocate nothing: a counting global allocator watches
//! random games on both boards once the action buffer has grown.

use junqi_core::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

thread_local! {
    /// Whether this thread's allocations are counted: only the test's own thread, so that the
    /// test harness's threads (which may allocate at any time) never count.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // `try_with`: a thread being torn down has no thread-locals left; it is not counted.
        if COUNTING.try_with(Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn generation_and_step_do_not_allocate() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let configs = [
        (BoardKind::TwoPlayer, Mode::Dark),
        (BoardKind::TwoPlayer, Mode::Flip),
        (BoardKind::FourPlayer, Mode::Dark),
        (BoardKind::FourPlayer, Mode::HalfOpen),
        (BoardKind::ThreePlayer, Mode::Dark),
        (BoardKind::SixPlayer, Mode::Dark),
        (BoardKind::SixPlayer, Mode::HalfOpen),
    ];
    let mut buf: Vec<Action> = Vec::with_capacity(4096);
    let mut plies = 0u64;
    for (board, mode) in configs {
        let rules = Rules::defaults(board, mode).unwrap();
        for _ in 0..20 {
            let mut pos = Position::random_start(rules, &mut rng);
            // Draw the random numbers outside the counted section.
            let picks: Vec<u32> = (0..3000).map(|_| rng.gen()).collect();
            let mut i = 0;
            COUNTING.with(|c| c.set(true));
            while !pos.is_over() {
                buf.clear();
                pos.legal_actions_into(&mut buf);
                let a = buf[picks[i % picks.len()] as usize % buf.len()];
                pos.play_unchecked(a, &mut ());
                i += 1;
            }
            COUNTING.with(|c| c.set(false));
            plies += i as u64;
        }
    }
    assert!(plies > 10_000);
    assert_eq!(
        ALLOCATIONS.load(Ordering::SeqCst),
        0,
        "allocations during {plies} plies"
    );
}
