//! The per-client rate limit: one token bucket per IP address.
//!
//! Each client may send `burst` requests at once; the bucket refills
//! continuously at `burst` tokens per `period`. The clock is a parameter so
//! that tests can drive time instead of sleeping.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// `burst` requests per `period`, per client IP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    pub burst: u32,
    pub period: Duration,
}

impl Default for RateLimit {
    /// 60 requests per 10 seconds.
    fn default() -> RateLimit {
        RateLimit {
            burst: 60,
            period: Duration::from_secs(10),
        }
    }
}

impl RateLimit {
    /// Parses `N/SECONDS` (`60/10`, `60/10s`).
    pub fn parse(text: &str) -> Result<RateLimit, String> {
        let bad = || format!("invalid rate limit `{text}`: expected REQUESTS/SECONDS, e.g. 60/10");
        let (count, seconds) = text.split_once('/').ok_or_else(bad)?;
        let burst: u32 = count.trim().parse().map_err(|_| bad())?;
        let seconds: u64 = seconds.trim().trim_end_matches('s').parse().map_err(|_| bad())?;
        if burst == 0 || seconds == 0 {
            return Err(format!("invalid rate limit `{text}`: both numbers must be positive"));
        }
        Ok(RateLimit {
            burst,
            period: Duration::from_secs(seconds),
        })
    }

    fn tokens_per_second(&self) -> f64 {
        f64::from(self.burst) / self.period.as_secs_f64()
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

/// Beyond this many tracked clients, idle (full) buckets are dropped, so that
/// a flood of distinct addresses cannot grow the table without bound.
const PRUNE_ABOVE_CLIENTS: usize = 10_000;

#[derive(Debug)]
pub struct RateLimiter {
    limit: RateLimit,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RateLimiter {
    pub fn new(limit: RateLimit) -> RateLimiter {
        RateLimiter {
            limit,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `client` at time `now`; when the bucket is empty,
    /// returns how long until the next token.
    pub fn acquire(&self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        let rate = self.limit.tokens_per_second();
        let capacity = f64::from(self.limit.burst);
        // A poisoned lock only means another request panicked mid-update; the
        // table is still a valid map, so keep using it.
        let mut buckets = self.buckets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if buckets.len() > PRUNE_ABOVE_CLIENTS {
            buckets.retain(|_, bucket| refilled(bucket, now, rate, capacity) < capacity);
        }
        let bucket = buckets.entry(client).or_insert(Bucket {
            tokens: capacity,
            updated: now,
        });
        bucket.tokens = refilled(bucket, now, rate, capacity);
        bucket.updated = now.max(bucket.updated);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / rate))
        }
    }
}

fn refilled(bucket: &Bucket, now: Instant, rate: f64, capacity: f64) -> f64 {
    let elapsed = now.saturating_duration_since(bucket.updated).as_secs_f64();
    (bucket.tokens + elapsed * rate).min(capacity)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALICE: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 1));
    const BOB: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 2));

    #[test]
    fn parses_limits() {
        assert_eq!(
            RateLimit::parse("60/10"),
            Ok(RateLimit {
                burst: 60,
                period: Duration::from_secs(10)
            })
        );
        assert_eq!(RateLimit::parse("5/1s").map(|l| l.burst), Ok(5));
        assert!(RateLimit::parse("60").is_err());
        assert!(RateLimit::parse("0/10").is_err());
        assert!(RateLimit::parse("a/b").is_err());
        assert!(RateLimit::parse("1/0").is_err());
    }

    #[test]
    fn a_bucket_empties_refills_and_is_per_client() {
        let limiter = RateLimiter::new(RateLimit {
            burst: 3,
            period: Duration::from_secs(3),
        });
        let start = Instant::now();
        for _ in 0..3 {
            assert_eq!(limiter.acquire(ALICE, start), Ok(()));
        }
        let wait = limiter.acquire(ALICE, start).unwrap_err();
        assert!(
            wait > Duration::from_millis(900) && wait <= Duration::from_secs(1),
            "{wait:?}"
        );
        assert_eq!(limiter.acquire(BOB, start), Ok(()), "another client has its own bucket");
        assert_eq!(limiter.acquire(ALICE, start + Duration::from_secs(1)), Ok(()));
        assert!(limiter.acquire(ALICE, start + Duration::from_secs(1)).is_err());
        // A long pause refills to the burst, not beyond.
        let later = start + Duration::from_secs(3600);
        for _ in 0..3 {
            assert_eq!(limiter.acquire(ALICE, later), Ok(()));
        }
        assert!(limiter.acquire(ALICE, later).is_err());
    }

    #[test]
    fn idle_clients_are_pruned() {
        let limiter = RateLimiter::new(RateLimit::default());
        let start = Instant::now();
        for i in 0..=PRUNE_ABOVE_CLIENTS as u32 {
            let ip = IpAddr::V4(std::net::Ipv4Addr::from(i));
            assert_eq!(limiter.acquire(ip, start), Ok(()));
        }
        let later = start + Duration::from_secs(60);
        assert_eq!(limiter.acquire(ALICE, later), Ok(()));
        let tracked = limiter.buckets.lock().map(|b| b.len()).unwrap_or(0);
        assert_eq!(tracked, 1, "only the active client is left");
    }
}
