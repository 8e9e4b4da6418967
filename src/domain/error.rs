//! Error values of the domain: lowercase messages with the offending values in them.

/// Why a scenario cannot be planned. Shown to the user; never a panic.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    #[error("{field} must be a finite number between {min} and {max}, got {value}")]
    OutOfRange { field: &'static str, value: f64, min: f64, max: f64 },
    #[error("unknown model preset `{0}`")]
    UnknownModel(String),
    #[error("unknown gpu id `{0}`")]
    UnknownGpu(String),
    #[error("invalid model: {0}")]
    InvalidModel(String),
    #[error("no card in the catalog matches the card filter")]
    NoCards,
    #[error("{field} `{value}` is not one of the choices")]
    UnknownChoice { field: &'static str, value: String },
}

/// Why a share link or saved scenario could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecodeError {
    #[error("the link has no scenario in it")]
    Empty,
    /// Its length and the most a link may have.
    #[error("the link is too long ({0} characters; at most {1})")]
    TooLong(usize, usize),
    #[error("unsupported link version `{0}` (this page reads v1)")]
    Version(String),
    #[error("the link is damaged (not valid base64): {0}")]
    Encoding(String),
    #[error("the link is damaged (not a valid scenario): {0}")]
    Json(String),
    #[error("the scenario cannot be planned: {0}")]
    Invalid(String),
    /// Its schema and the newest this page reads.
    #[error("saved by a newer version of the page (schema {0}); this page reads up to {1}")]
    NewerSchema(u32, u32),
}

impl PlanError {
    /// The message in the page's language (field names and values as written).
    #[must_use]
    pub fn message(&self, l: super::format::Lang) -> String {
        if l == super::format::Lang::En {
            return self.to_string();
        }
        match self {
            PlanError::OutOfRange { field, value, min, max } => {
                format!("{field} 应为 {min} 到 {max} 之间的有限数，实际为 {value}")
            }
            PlanError::UnknownModel(m) => format!("未知的模型预设 `{m}`"),
            PlanError::UnknownGpu(g) => format!("未知的显卡 `{g}`"),
            PlanError::InvalidModel(e) => format!("模型无效：{e}"),
            PlanError::NoCards => "目录中没有符合筛选条件的显卡".into(),
            PlanError::UnknownChoice { field, value } => format!("{field} `{value}` 不是可选项之一"),
        }
    }
}

impl DecodeError {
    /// The message in the page's language.
    #[must_use]
    pub fn message(&self, l: super::format::Lang) -> String {
        if l == super::format::Lang::En {
            return self.to_string();
        }
        match self {
            DecodeError::Empty => "链接中没有方案".into(),
            DecodeError::TooLong(n, max) => format!("链接过长（{n} 个字符；最多 {max}）"),
            DecodeError::Version(v) => format!("不支持的链接版本 `{v}`（本页读取 v1）"),
            // The decoder's and serde's own details are English: the Chinese message stops short.
            DecodeError::Encoding(_) => "链接已损坏（不是有效的 base64）".into(),
            DecodeError::Json(_) => "链接已损坏（不是有效的方案）".into(),
            DecodeError::Invalid(_) => "链接中的方案无法规划（数值超出范围或选项无效）".into(),
            DecodeError::NewerSchema(s, max) => format!("由更新版本的页面保存（schema {s}）；本页最多读取 {max}"),
        }
    }
}
