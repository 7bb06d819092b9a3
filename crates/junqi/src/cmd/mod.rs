pub mod perft;
pub mod rules;
pub mod selfplay;
