//! Every number in a value's serde form, NaN and infinity included: JSON writes those as null,
//! so a walk over `serde_json::Value` cannot see them. A serializer that only collects numbers.

use serde::ser::{self, Serialize};
use std::fmt;

/// The numbers of `v` with their paths (`.cards[3].hours`).
pub fn floats<T: Serialize>(v: &T) -> Vec<(String, f64)> {
    let mut c = Collector { path: String::new(), out: Vec::new() };
    let _ = v.serialize(&mut c);
    c.out
}

struct Collector {
    path: String,
    out: Vec<(String, f64)>,
}

impl Collector {
    fn push(&mut self, v: f64) -> Result<(), Never> {
        self.out.push((self.path.clone(), v));
        Ok(())
    }
}

#[derive(Debug)]
pub struct Never;

impl fmt::Display for Never {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not collected")
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Never
    }
}

/// A sequence, map or struct being walked: the path it sits at and the next element's index.
pub struct Compound<'a> {
    c: &'a mut Collector,
    base: String,
    i: usize,
}

impl Compound<'_> {
    fn at(&mut self, segment: &str) {
        self.c.path = format!("{}{segment}", self.base);
    }
    fn element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), Never> {
        self.at(&format!("[{}]", self.i));
        self.i += 1;
        v.serialize(&mut *self.c)
    }
    fn field<T: ?Sized + Serialize>(&mut self, name: &str, v: &T) -> Result<(), Never> {
        self.at(&format!(".{name}"));
        v.serialize(&mut *self.c)
    }
    fn done(self) -> Result<(), Never> {
        self.c.path = self.base;
        Ok(())
    }
}

impl<'a> ser::Serializer for &'a mut Collector {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, _: bool) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Never> {
        self.push(f64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Never> {
        self.push(f64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Never> {
        self.push(f64::from(v))
    }
    #[allow(clippy::cast_precision_loss)]
    fn serialize_i64(self, v: i64) -> Result<(), Never> {
        self.push(v as f64)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Never> {
        self.push(f64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Never> {
        self.push(f64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Never> {
        self.push(f64::from(v))
    }
    #[allow(clippy::cast_precision_loss)]
    fn serialize_u64(self, v: u64) -> Result<(), Never> {
        self.push(v as f64)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Never> {
        self.push(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Never> {
        self.push(v)
    }
    fn serialize_char(self, _: char) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_str(self, _: &str) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<(), Never> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, v: &T) -> Result<(), Never> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Never> {
        let mut c = compound(self);
        c.field(variant, v)?;
        c.done()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Never> {
        Ok(compound(self))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Never> {
        Ok(compound(self))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Never> {
        Ok(compound(self))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Never> {
        Ok(compound(self))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Never> {
        Ok(compound(self))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Never> {
        Ok(compound(self))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Never> {
        Ok(compound(self))
    }
}

fn compound(c: &mut Collector) -> Compound<'_> {
    let base = c.path.clone();
    Compound { c, base, i: 0 }
}

/// The four positional compounds (sequence, tuple, tuple struct, tuple variant) walk alike.
macro_rules! positional {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Never;
            fn $method<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), Never> {
                self.element(v)
            }
            fn end(self) -> Result<(), Never> {
                self.done()
            }
        }
    )*};
}
positional!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Never;
    // Keys are not numbers the report shows; values are named by their position.
    fn serialize_key<T: ?Sized + Serialize>(&mut self, _: &T) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), Never> {
        self.element(v)
    }
    fn end(self) -> Result<(), Never> {
        self.done()
    }
}

/// Structs and struct variants: each field under its name.
macro_rules! named {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Never;
            fn serialize_field<T: ?Sized + Serialize>(&mut self, name: &'static str, v: &T) -> Result<(), Never> {
                self.field(name, v)
            }
            fn end(self) -> Result<(), Never> {
                self.done()
            }
        }
    )*};
}
named!(SerializeStruct, SerializeStructVariant);
