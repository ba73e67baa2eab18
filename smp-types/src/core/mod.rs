//! The core API group, `v1`.

pub mod affinity;
pub mod config;
pub mod container;
pub mod node;
pub mod pod;
pub mod service;
pub mod volume;

pub use affinity::*;
pub use config::*;
pub use container::*;
pub use node::*;
pub use pod::*;
pub use service::*;
pub use volume::*;
