//! Arbitrary-size pile sizes in JSON: a number while it fits in a `u64`, a decimal string after.

use num_bigint::BigUint;
use num_traits::ToPrimitive;
use serde::Serializer;

/// Serialise `n` as a JSON number when it fits in 64 bits, else as a decimal string.
///
/// # Errors
/// Whatever the serializer reports.
pub fn serialize<S: Serializer>(n: &BigUint, s: S) -> Result<S::Ok, S::Error> {
    match n.to_u64() {
        Some(small) => s.serialize_u64(small),
        None => s.serialize_str(&n.to_string()),
    }
}
