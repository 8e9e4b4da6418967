//! The changes the page's buttons make to a scenario, as plain functions a native test reaches:
//! picking a model (a custom model starts as a full copy of the preset before it), adding and
//! removing the user's own cards (ids unique against the catalog and each other), the seeds'
//! ownership preset, and finding a card by id among the catalog and the user's cards.

use super::catalog::{Catalog, Gpu, Interconnect, Source};
use super::error::PlanError;
use super::model;
use super::scenario::{Ownership, Scenario};

/// A card the user describes in the page: the few figures a plan needs.
#[derive(Debug, Clone, PartialEq)]
pub struct CardInput {
    /// Empty: the card is named by its id.
    pub name: String,
    pub memory_gb: f64,
    pub bf16_tflops: f64,
    pub bandwidth_gb_s: f64,
    pub tdp_w: f64,
}

impl Default for CardInput {
    /// An L40S-sized card: 48 GB, 150 dense BF16 TFLOPS (rounded down from 181), ~1 TB/s, 300 W.
    fn default() -> Self {
        Self { name: String::new(), memory_gb: 48.0, bf16_tflops: 150.0, bandwidth_gb_s: 1000.0, tdp_w: 300.0 }
    }
}

/// One number of a custom card, with its limits (the form and [`CardInput::validate`] share them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardField {
    MemoryGb,
    Bf16Tflops,
    BandwidthGbS,
    TdpW,
}

impl CardField {
    pub const ALL: [CardField; 4] =
        [CardField::MemoryGb, CardField::Bf16Tflops, CardField::BandwidthGbS, CardField::TdpW];

    /// (name in messages, min, max).
    #[must_use]
    pub fn limits(self) -> (&'static str, f64, f64) {
        match self {
            CardField::MemoryGb => ("memory_gb", 1.0, 4096.0),
            CardField::Bf16Tflops => ("bf16_tflops", 0.1, 100_000.0),
            CardField::BandwidthGbS => ("memory_bandwidth_gb_s", 1.0, 100_000.0),
            CardField::TdpW => ("tdp_w", 1.0, 10_000.0),
        }
    }

    #[must_use]
    pub fn get(self, c: &CardInput) -> f64 {
        match self {
            CardField::MemoryGb => c.memory_gb,
            CardField::Bf16Tflops => c.bf16_tflops,
            CardField::BandwidthGbS => c.bandwidth_gb_s,
            CardField::TdpW => c.tdp_w,
        }
    }

    pub fn set(self, c: &mut CardInput, v: f64) {
        match self {
            CardField::MemoryGb => c.memory_gb = v,
            CardField::Bf16Tflops => c.bf16_tflops = v,
            CardField::BandwidthGbS => c.bandwidth_gb_s = v,
            CardField::TdpW => c.tdp_w = v,
        }
    }
}

impl CardInput {
    /// Checks every figure is within its limits.
    ///
    /// # Errors
    /// The first figure out of range.
    pub fn validate(&self) -> Result<(), PlanError> {
        for f in CardField::ALL {
            let (field, min, max) = f.limits();
            let value = f.get(self);
            if !(value.is_finite() && (min..=max).contains(&value)) {
                return Err(PlanError::OutOfRange { field, value, min, max });
            }
        }
        Ok(())
    }

    /// The card as a catalog entry with the given id: a PCIe datacenter card on CUDA, one per
    /// fast-link domain, its source "user input".
    #[must_use]
    pub fn to_gpu(&self, id: String) -> Gpu {
        let name = self.name.trim();
        Gpu {
            name: if name.is_empty() { id.clone() } else { name.chars().take(120).collect() },
            id,
            vendor: "Custom".into(),
            segment: "datacenter".into(),
            market: "global".into(),
            memory_gb: Some(self.memory_gb),
            memory_bandwidth_gb_s: Some(self.bandwidth_gb_s),
            bf16_tflops: Some(self.bf16_tflops),
            fp16_tflops: Some(self.bf16_tflops),
            tdp_w: Some(self.tdp_w),
            interconnect: Interconnect { kind: "pcie".into(), gb_s: None, domain: Some(1) },
            software: "cuda".into(),
            notes: "added by the user".into(),
            sources: vec![Source { title: "user input".into(), ..Source::default() }],
            ..Gpu::default()
        }
    }
}

/// An id for a new custom card: `custom-N`, N one past the largest in use (so an id is not
/// handed out again while any card holds a larger one), skipping any id the catalog or another
/// card already has.
#[must_use]
pub fn free_custom_id(catalog: &Catalog, custom: &[Gpu]) -> String {
    let taken = |id: &str| catalog.gpu(id).is_some() || custom.iter().any(|g| g.id == id);
    let mut n = custom
        .iter()
        .filter_map(|g| g.id.strip_prefix("custom-").and_then(|t| t.parse::<u64>().ok()))
        .max()
        .unwrap_or(0)
        .saturating_add(1);
    loop {
        let id = format!("custom-{n}");
        if !taken(&id) {
            return id;
        }
        n = n.wrapping_add(1);
    }
}

impl Scenario {
    /// A card by id: the catalog's, else one of the user's own.
    #[must_use]
    pub fn gpu<'a>(&'a self, catalog: &'a Catalog, id: &str) -> Option<&'a Gpu> {
        catalog.gpu(id).or_else(|| self.custom_gpus.iter().find(|g| g.id == id))
    }

    /// Picks a model preset, or `custom`. Switching to custom starts from a full copy of the
    /// preset shown before ([`ModelSpec::as_custom`](super::model::ModelSpec::as_custom)): every
    /// structural field it keeps is one the custom form shows.
    pub fn select_model(&mut self, id: &str) {
        if id == "custom" && self.model != "custom" {
            if let Some(m) = model::preset(&self.model) {
                self.custom_model = m.as_custom();
            }
        }
        // A speech model starts from speech's job values and an image model from the image
        // ones, unless the user has changed them.
        let speech = |id: &str| super::vision::model(id).is_some_and(|m| m.family == "speech");
        if speech(&self.model) != speech(id) {
            let (image, voice) = (super::scenario::VisionJob::default(), super::scenario::VisionJob::speech());
            let (from, to) = if speech(id) { (image, voice) } else { (voice, image) };
            if self.vision.untouched_as(&from) {
                self.vision.take_values_of(&to);
            }
        }
        self.model = id.to_string();
        // The engine select shows only where the model was measured on two or more engines: a
        // choice the new model does not offer would act unseen (SAM's PyTorch rows taken before
        // its unstated one), so it goes back to "as measured".
        if self.vision.engine.is_some_and(|e| !super::vision::offered_engines(self).contains(&e)) {
            self.vision.engine = None;
        }
    }

    /// Makes a model read from a `config.json` the scenario's model: it becomes the custom
    /// model (the share link and saved scenarios carry it), and pre-quantised weights set the
    /// weight format when the planner has one for them.
    pub fn apply_config(&mut self, read: &super::config::ConfigRead) {
        self.custom_model = read.model.clone();
        self.model = "custom".into();
        if let Some(q) = read.quantization.as_ref().and_then(super::config::Quantization::weight_quant) {
            self.weight_quant = q;
        }
    }

    /// Adds the user's own card with an id no other card has; returns the id.
    ///
    /// # Errors
    /// A figure out of range (nothing is added).
    pub fn add_custom_gpu(&mut self, catalog: &Catalog, card: &CardInput) -> Result<String, PlanError> {
        card.validate()?;
        let id = free_custom_id(catalog, &self.custom_gpus);
        self.custom_gpus.push(card.to_gpu(id.clone()));
        Ok(id)
    }

    /// Removes one of the user's cards and everything that named it (a price quote, the
    /// "only these cards" list, the card to buy), so a later card never inherits them.
    pub fn remove_custom_gpu(&mut self, id: &str) {
        self.custom_gpus.retain(|g| g.id != id);
        self.money.overrides.retain(|o| o.gpu != id);
        self.cards.only.retain(|g| g != id);
        if self.ownership.gpu == id {
            self.ownership.gpu.clear();
        }
    }

    /// Gives every custom card an id of its own: a card whose id the catalog or an earlier card
    /// already has (scenarios saved before ids were unique) gets a fresh `custom-N`, so it is
    /// ranked instead of shadowed. Returns how many were renamed.
    pub fn make_custom_ids_unique(&mut self, catalog: &Catalog) -> usize {
        let mut renamed = 0;
        for i in 0..self.custom_gpus.len() {
            let (before, rest) = self.custom_gpus.split_at(i);
            let id = &rest[0].id;
            if catalog.gpu(id).is_some() || before.iter().any(|g| &g.id == id) {
                let fresh = free_custom_id(catalog, &self.custom_gpus);
                self.custom_gpus[i].id = fresh;
                renamed += 1;
            }
        }
        renamed
    }

    /// The seeds' A100 server figures ([`Ownership::seed_a100_server`]) as the purchase: its card,
    /// count, price and 4-card host as a custom profile; the site, utilisation and the plan's
    /// layout stay as the user set them.
    pub fn apply_seed_a100_server(&mut self) {
        // The seed's card, count, price and host; everything else the user set stays (it once
        // reset utilisation and changed the plan's cards per server).
        let seed = Ownership::seed_a100_server();
        let o = &mut self.ownership;
        o.gpu = seed.gpu;
        o.cards = seed.cards;
        o.currency = seed.currency;
        o.card_price = seed.card_price;
        o.profile = seed.profile;
        o.cards_per_host = seed.cards_per_host;
        o.server_price = seed.server_price;
        o.network_per_server = seed.network_per_server;
    }
}
