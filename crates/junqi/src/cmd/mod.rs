pub mod arena;
pub mod engine;
pub mod loadtest;
pub mod perft;
pub mod play;
pub mod rules;
pub mod selfplay;
pub mod serve;
