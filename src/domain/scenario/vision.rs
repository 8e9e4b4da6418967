//! Inputs of a vision, OCR, speech or diffusion job (domain/vision.rs plans it): what a CV team
//! thinks in — image size, batch, dataset, epochs; for serving, a rate and a latency target.

use crate::domain::vision_data::{Engine, MemoryFormat};

#[derive(Debug, Clone, PartialEq)]
pub struct VisionJob {
    /// Input side in pixels; 0 = the model's reference size.
    pub resolution: u32,
    /// Images (speech: 30-second clips) per card per step; for serving, the largest batch allowed.
    pub batch: u32,
    /// Dataset size: images, or hours of audio for speech models.
    pub dataset: f64,
    pub epochs: f64,
    /// Serving: images (speech: clips, diffusion: generated images) per second offered.
    pub rate: f64,
    /// Serving: the longest a request may take, ms (waiting for its batch included).
    pub latency_ms: f64,
    /// Diffusion sampling steps; 0 = the model's default.
    pub steps: u32,
    /// The memory format the job runs in (NCHW is PyTorch's default, NHWC `channels_last`);
    /// `None`: as each measurement ran (no correction).
    pub memory_format: Option<MemoryFormat>,
    /// The software the job runs on; measurements on it are preferred to any other's
    /// (domain/vision.rs `best`). `None`: whichever measurement is nearest.
    pub engine: Option<Engine>,
}

impl Default for VisionJob {
    fn default() -> Self {
        Self {
            resolution: 0,
            batch: 16,
            dataset: 100_000.0,
            epochs: 100.0,
            rate: 100.0,
            latency_ms: 200.0,
            steps: 0,
            memory_format: None,
            engine: None,
        }
    }
}

impl VisionJob {
    /// Starting values for a speech model, which the image defaults misfit (100 clips of 30 s a
    /// second is 3,000 s of audio a second; a 200 ms target is below the ~2.3 s one Whisper
    /// large-v2 clip takes alone at the ~13× real time faster-whisper measures on an RTX 4090):
    /// 10 clips a second answered within 10 s, fine-tuning on 1,000 hours (the size of
    /// AISHELL-2, a Mandarin corpus) for 5 epochs. Editable like any input.
    #[must_use]
    pub fn speech() -> Self {
        Self { dataset: 1_000.0, epochs: 5.0, rate: 10.0, latency_ms: 10_000.0, ..Self::default() }
    }

    /// Whether the job still holds `other`'s starting values (what a model switch may replace).
    #[must_use]
    pub fn untouched_as(&self, other: &Self) -> bool {
        (self.dataset, self.epochs, self.rate, self.latency_ms)
            == (other.dataset, other.epochs, other.rate, other.latency_ms)
    }

    /// Takes `other`'s starting values (those [`Self::untouched_as`] compares), keeping the
    /// image size, batch and steps.
    pub fn take_values_of(&mut self, other: &Self) {
        (self.dataset, self.epochs, self.rate, self.latency_ms) =
            (other.dataset, other.epochs, other.rate, other.latency_ms);
    }
}

// Deserialize by table (domain/read.rs): the same meaning as a derive with #[serde(default)].
crate::read_fields!(VisionJob {
    resolution: whole,
    batch: whole,
    dataset: real,
    epochs: real,
    rate: real,
    latency_ms: real,
    steps: whole,
    memory_format: any,
    engine: any
});
