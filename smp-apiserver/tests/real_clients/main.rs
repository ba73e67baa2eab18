//! Real clients against the test server, each exercising what kube-apiserver v1.34 does with
//! writes and reads: kube's `Client` in memory and over HTTP (`kube_*`), kubectl (`kubectl`),
//! and the official Python client (`python`). Every expected answer is the real server's; where
//! it is not obvious, a comment names where upstream the behaviour lives.

mod kube_boot;
mod kube_events;
mod kube_forms;
mod kube_lists;
mod kube_subresources;
mod kube_writes;
mod kubectl;
mod python;
mod support;
