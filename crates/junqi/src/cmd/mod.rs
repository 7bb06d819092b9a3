pub mod selfplay;
