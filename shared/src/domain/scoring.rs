//! Reading and listening scores: correct answers out of 40 → CLB band → TEF
//! estimate on both scales (decisions §2). The tables are data, in one place.
//!
//! Sources:
//! - correct-answer bands: the product specification §9 (same bands for both papers);
//! - score ranges per CLB: IRCC, "Language test equivalency charts", TEF Canada,
//!   old scale (reading /300, listening /360) and the 0–699 scale for tests taken
//!   since 11 December 2023. Tables as of 2024-01, copied in decisions.md §2.

use serde::{Deserialize, Serialize};

/// The two multiple-choice papers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Paper {
    Reading,
    Listening,
}

/// Questions in a reading or listening paper.
pub const QUESTIONS: u32 = 40;

/// Correct answers → CLB (spec §9): (lowest count, highest count, CLB).
const COUNT_BANDS: [(u32, u32, u8); 8] = [
    (38, 40, 10),
    (36, 37, 9),
    (33, 35, 8),
    (30, 32, 7),
    (26, 29, 6),
    (21, 25, 5),
    (16, 20, 4),
    (0, 15, 3),
];

/// IRCC score range per CLB: (CLB, old-scale range, 0–699 range).
type Ranges = [(u8, (u32, u32), (u32, u32)); 7];

const READING: Ranges = [
    (10, (263, 300), (546, 699)),
    (9, (248, 262), (503, 545)),
    (8, (233, 247), (462, 502)),
    (7, (207, 232), (434, 461)),
    (6, (181, 206), (393, 433)),
    (5, (151, 180), (352, 392)),
    (4, (121, 150), (306, 351)),
];

const LISTENING: Ranges = [
    (10, (316, 360), (546, 699)),
    (9, (298, 315), (503, 545)),
    (8, (280, 297), (462, 502)),
    (7, (249, 279), (434, 461)),
    (6, (217, 248), (393, 433)),
    (5, (181, 216), (352, 392)),
    (4, (145, 180), (306, 351)),
];

impl Paper {
    fn ranges(self) -> &'static Ranges {
        match self {
            Self::Reading => &READING,
            Self::Listening => &LISTENING,
        }
    }

    /// The top of the old scale: reading /300, listening /360.
    pub fn old_scale_max(self) -> u32 {
        match self {
            Self::Reading => 300,
            Self::Listening => 360,
        }
    }
}

/// A TEF estimate on one scale: a score, or "below" the CLB 4 floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TefScore {
    /// An estimated score.
    Score { value: u32, max: u32 },
    /// Below CLB 4: lower than `below`, without inventing a range.
    Below { below: u32, max: u32 },
}

/// The estimate for one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Estimate {
    pub correct: u32,
    pub total: u32,
    /// 3 stands for "CLB 3 or below".
    pub clb: u8,
    /// The certificate's old scale (/300 reading, /360 listening).
    pub tef_old: TefScore,
    /// The 0–699 scale of tests since December 2023.
    pub tef_new: TefScore,
    /// Whole percent correct, rounded down.
    pub percent: u32,
}

/// The CLB band for a number of correct answers out of 40 (more than 40 counts as 40).
pub fn clb_for(correct: u32) -> u8 {
    let c = correct.min(QUESTIONS);
    COUNT_BANDS
        .iter()
        .find(|(lo, hi, _)| (*lo..=*hi).contains(&c))
        .map_or(3, |(_, _, clb)| *clb)
}

fn interpolate(count: u32, (lo_c, hi_c): (u32, u32), (lo_s, hi_s): (u32, u32)) -> u32 {
    if hi_c == lo_c {
        return lo_s;
    }
    // Linear inside the band, rounded to the nearest point.
    let num = u64::from(count - lo_c) * u64::from(hi_s - lo_s);
    let den = u64::from(hi_c - lo_c);
    lo_s + u32::try_from((num * 2 + den) / (den * 2)).unwrap_or(0)
}

/// Scores an attempt on a paper.
pub fn estimate(paper: Paper, correct: u32) -> Estimate {
    let c = correct.min(QUESTIONS);
    let clb = clb_for(c);
    let (tef_old, tef_new) = match COUNT_BANDS.iter().find(|b| b.2 == clb) {
        Some(&(lo, hi, _)) if clb >= 4 => {
            let (_, old, new) = paper
                .ranges()
                .iter()
                .find(|r| r.0 == clb)
                .copied()
                .unwrap_or((clb, (0, 0), (0, 0)));
            (
                TefScore::Score {
                    value: interpolate(c, (lo, hi), old),
                    max: paper.old_scale_max(),
                },
                TefScore::Score {
                    value: interpolate(c, (lo, hi), new),
                    max: 699,
                },
            )
        }
        _ => {
            let floor = paper.ranges()[6];
            (
                TefScore::Below {
                    below: floor.1.0,
                    max: paper.old_scale_max(),
                },
                TefScore::Below {
                    below: floor.2.0,
                    max: 699,
                },
            )
        }
    };
    Estimate {
        correct: c,
        total: QUESTIONS,
        clb,
        tef_old,
        tef_new,
        percent: c * 100 / QUESTIONS,
    }
}

/// Writing, IRCC (decisions §2): CLB, old-scale range (/450), 0–699 range.
const WRITING: Ranges = [
    (10, (393, 450), (558, 699)),
    (9, (371, 392), (512, 557)),
    (8, (349, 370), (472, 511)),
    (7, (310, 348), (428, 471)),
    (6, (271, 309), (379, 427)),
    (5, (226, 270), (330, 378)),
    (4, (181, 225), (268, 329)),
];

/// Speaking, IRCC (decisions §2): CLB, old-scale range (/450), 0–699 range.
const SPEAKING: Ranges = [
    (10, (393, 450), (556, 699)),
    (9, (371, 392), (518, 555)),
    (8, (349, 370), (494, 517)),
    (7, (310, 348), (456, 493)),
    (6, (271, 309), (422, 455)),
    (5, (226, 270), (387, 421)),
    (4, (181, 225), (328, 386)),
];

/// The top of the writing paper's old scale.
pub const WRITING_OLD_MAX: u32 = 450;

/// A writing estimate: the CLB and the score on both scales.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WritingEstimate {
    /// 3 stands for "CLB 3 or below".
    pub clb: u8,
    pub tef_old: TefScore,
    pub tef_new: TefScore,
}

/// A writing score on the old /450 scale → its CLB by the IRCC writing table, and the
/// same position inside the band on the 0–699 scale. Below 181: "CLB 3 or below".
pub fn estimate_writing(score_old: u32) -> WritingEstimate {
    estimate_production(&WRITING, score_old)
}

/// A speaking score on the old /450 scale → its CLB by the IRCC speaking table, and both scales.
pub fn estimate_speaking(score_old: u32) -> WritingEstimate {
    estimate_production(&SPEAKING, score_old)
}

fn estimate_production(table: &Ranges, score_old: u32) -> WritingEstimate {
    let s = score_old.min(WRITING_OLD_MAX);
    match table.iter().find(|(_, old, _)| s >= old.0) {
        Some(&(clb, old, new)) => WritingEstimate {
            clb,
            tef_old: TefScore::Score {
                value: s,
                max: WRITING_OLD_MAX,
            },
            tef_new: TefScore::Score {
                value: interpolate(s, old, new),
                max: 699,
            },
        },
        None => WritingEstimate {
            clb: 3,
            tef_old: TefScore::Below {
                below: table[6].1.0,
                max: WRITING_OLD_MAX,
            },
            tef_new: TefScore::Below {
                below: table[6].2.0,
                max: 699,
            },
        },
    }
}

/// Other learners' first attempts needed before a result is compared with them (decisions §5).
pub const MIN_COMPARED_ATTEMPTS: u64 = 30;

/// The whole percent of other learners' first attempts at the same paper that scored lower
/// than `score`. `distribution[c]` counts first attempts with `c` correct answers, the
/// learner's own first attempt (`own_first`, its score) included, so it is taken out.
/// `None` while fewer than [`MIN_COMPARED_ATTEMPTS`] other first attempts exist.
pub fn exceeds_percent(distribution: &[u64], score: u32, own_first: Option<u32>) -> Option<u32> {
    let mut counts = distribution.to_vec();
    if let Some(c) = own_first.and_then(|f| counts.get_mut(usize::try_from(f).ok()?)) {
        *c = c.saturating_sub(1);
    }
    let total: u64 = counts.iter().sum();
    if total < MIN_COMPARED_ATTEMPTS {
        return None;
    }
    let lower: u64 = counts
        .iter()
        .take(usize::try_from(score).unwrap_or(usize::MAX))
        .sum();
    u32::try_from(lower * 100 / total).ok()
}

/// The overall CLB: the lowest of the skills, as IRCC counts it. `None` without any skill.
pub fn overall_clb(skills: impl IntoIterator<Item = u8>) -> Option<u8> {
    skills.into_iter().min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speaking_scores_follow_the_ircc_speaking_table() {
        let cases = [
            (450, 10, Some(699)),
            (393, 10, Some(556)),
            (392, 9, Some(555)),
            (349, 8, Some(494)),
            (310, 7, Some(456)),
            (309, 6, Some(455)),
            (226, 5, Some(387)),
            (181, 4, Some(328)),
            (180, 3, None),
        ];
        for (old, clb, new) in cases {
            let e = estimate_speaking(old);
            assert_eq!((e.clb, value(e.tef_new)), (clb, new), "{old}");
        }
        assert_eq!(
            estimate_speaking(0).tef_new,
            TefScore::Below {
                below: 328,
                max: 699
            }
        );
    }

    #[test]
    fn writing_scores_follow_the_ircc_writing_table_on_both_scales() {
        // (old-scale score, CLB, 0–699 value) at every band edge, worked out by hand.
        let cases = [
            (450, 10, Some(699)),
            (393, 10, Some(558)),
            (392, 9, Some(557)),
            (371, 9, Some(512)),
            (370, 8, Some(511)),
            (349, 8, Some(472)),
            (348, 7, Some(471)),
            (310, 7, Some(428)),
            (309, 6, Some(427)),
            (271, 6, Some(379)),
            (270, 5, Some(378)),
            (226, 5, Some(330)),
            (225, 4, Some(329)),
            (181, 4, Some(268)),
            (180, 3, None),
            (0, 3, None),
        ];
        for (old, clb, new) in cases {
            let e = estimate_writing(old);
            assert_eq!(e.clb, clb, "{old}");
            assert_eq!(value(e.tef_new), new, "{old}");
            if new.is_some() {
                assert_eq!(value(e.tef_old), Some(old));
            } else {
                assert_eq!(
                    e.tef_old,
                    TefScore::Below {
                        below: 181,
                        max: 450
                    }
                );
                assert_eq!(
                    e.tef_new,
                    TefScore::Below {
                        below: 268,
                        max: 699
                    }
                );
            }
        }
        assert_eq!(estimate_writing(999), estimate_writing(450));
        let mut last = 0;
        for old in 181..=450 {
            let n = value(estimate_writing(old).tef_new).unwrap();
            assert!(
                n >= last,
                "{old}: the 0–699 value never falls as the score rises"
            );
            last = n;
        }
    }

    fn value(s: TefScore) -> Option<u32> {
        match s {
            TefScore::Score { value, .. } => Some(value),
            TefScore::Below { .. } => None,
        }
    }

    #[test]
    fn every_count_from_0_to_40_has_the_specs_clb() {
        let expected: [u8; 41] = [
            3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, // 0–15
            4, 4, 4, 4, 4, // 16–20
            5, 5, 5, 5, 5, // 21–25
            6, 6, 6, 6, // 26–29
            7, 7, 7, // 30–32
            8, 8, 8, // 33–35
            9, 9, // 36–37
            10, 10, 10, // 38–40
        ];
        for (c, clb) in expected.iter().enumerate() {
            let c = u32::try_from(c).unwrap();
            assert_eq!(clb_for(c), *clb, "{c} correct");
            for paper in [Paper::Reading, Paper::Listening] {
                assert_eq!(estimate(paper, c).clb, *clb, "{paper:?} {c}");
            }
        }
    }

    #[test]
    fn every_count_gives_a_score_inside_its_ircc_range_on_both_scales() {
        for paper in [Paper::Reading, Paper::Listening] {
            let mut last: Option<(u32, u32)> = None;
            for c in 0..=40 {
                let e = estimate(paper, c);
                assert_eq!((e.correct, e.total, e.percent), (c, 40, c * 100 / 40));
                if e.clb < 4 {
                    assert!(matches!(e.tef_old, TefScore::Below { .. }), "{paper:?} {c}");
                    assert!(matches!(e.tef_new, TefScore::Below { .. }), "{paper:?} {c}");
                    continue;
                }
                let (_, old, new) = *paper.ranges().iter().find(|r| r.0 == e.clb).unwrap();
                let (o, n) = (value(e.tef_old).unwrap(), value(e.tef_new).unwrap());
                assert!(
                    (old.0..=old.1).contains(&o),
                    "{paper:?} {c}: {o} not in {old:?}"
                );
                assert!(
                    (new.0..=new.1).contains(&n),
                    "{paper:?} {c}: {n} not in {new:?}"
                );
                if let Some((lo, ln)) = last {
                    assert!(
                        o > lo && n > ln,
                        "{paper:?} {c}: scores must rise with each answer"
                    );
                }
                last = Some((o, n));
            }
        }
    }

    /// (correct, CLB, old scale, 0–699 scale) for 16 to 40 correct, worked out by hand from
    /// decisions.md §2 (linear inside each band, rounded to the nearest point), not from the code's tables.
    const PINNED_READING: [(u32, u8, u32, u32); 25] = [
        (16, 4, 121, 306),
        (17, 4, 128, 317),
        (18, 4, 136, 329),
        (19, 4, 143, 340),
        (20, 4, 150, 351),
        (21, 5, 151, 352),
        (22, 5, 158, 362),
        (23, 5, 166, 372),
        (24, 5, 173, 382),
        (25, 5, 180, 392),
        (26, 6, 181, 393),
        (27, 6, 189, 406),
        (28, 6, 198, 420),
        (29, 6, 206, 433),
        (30, 7, 207, 434),
        (31, 7, 220, 448),
        (32, 7, 232, 461),
        (33, 8, 233, 462),
        (34, 8, 240, 482),
        (35, 8, 247, 502),
        (36, 9, 248, 503),
        (37, 9, 262, 545),
        (38, 10, 263, 546),
        (39, 10, 282, 623),
        (40, 10, 300, 699),
    ];
    const PINNED_LISTENING: [(u32, u8, u32, u32); 25] = [
        (16, 4, 145, 306),
        (17, 4, 154, 317),
        (18, 4, 163, 329),
        (19, 4, 171, 340),
        (20, 4, 180, 351),
        (21, 5, 181, 352),
        (22, 5, 190, 362),
        (23, 5, 199, 372),
        (24, 5, 207, 382),
        (25, 5, 216, 392),
        (26, 6, 217, 393),
        (27, 6, 227, 406),
        (28, 6, 238, 420),
        (29, 6, 248, 433),
        (30, 7, 249, 434),
        (31, 7, 264, 448),
        (32, 7, 279, 461),
        (33, 8, 280, 462),
        (34, 8, 289, 482),
        (35, 8, 297, 502),
        (36, 9, 298, 503),
        (37, 9, 315, 545),
        (38, 10, 316, 546),
        (39, 10, 338, 623),
        (40, 10, 360, 699),
    ];

    #[test]
    fn every_count_from_0_to_40_gives_the_pinned_clb_and_both_tef_scores() {
        for (paper, pinned, floor_old) in [
            (Paper::Reading, &PINNED_READING, 121),
            (Paper::Listening, &PINNED_LISTENING, 145),
        ] {
            for c in 0..16 {
                let e = estimate(paper, c);
                assert_eq!(e.clb, 3, "{paper:?} {c}");
                assert_eq!(
                    (e.tef_old, e.tef_new),
                    (
                        TefScore::Below {
                            below: floor_old,
                            max: paper.old_scale_max()
                        },
                        TefScore::Below {
                            below: 306,
                            max: 699
                        }
                    ),
                    "{paper:?} {c}"
                );
            }
            for &(c, clb, old, new) in pinned {
                let e = estimate(paper, c);
                assert_eq!(
                    (e.clb, value(e.tef_old), value(e.tef_new)),
                    (clb, Some(old), Some(new)),
                    "{paper:?} {c} correct"
                );
            }
        }
    }

    #[test]
    fn below_clb_4_names_the_floor_without_a_range() {
        let e = estimate(Paper::Listening, 15);
        assert_eq!(e.clb, 3);
        assert_eq!(
            e.tef_old,
            TefScore::Below {
                below: 145,
                max: 360
            }
        );
        assert_eq!(
            e.tef_new,
            TefScore::Below {
                below: 306,
                max: 699
            }
        );
        let e = estimate(Paper::Reading, 0);
        assert_eq!(
            e.tef_old,
            TefScore::Below {
                below: 121,
                max: 300
            }
        );
    }

    #[test]
    fn counts_above_40_are_capped() {
        assert_eq!(estimate(Paper::Reading, 99), estimate(Paper::Reading, 40));
    }

    #[test]
    fn the_comparison_counts_only_other_learners_and_needs_thirty() {
        let mut dist = vec![0u64; 41];
        // 29 others plus the learner's own first attempt (score 20): not enough.
        dist[10] = 19;
        dist[30] = 10;
        dist[20] = 1;
        assert_eq!(exceeds_percent(&dist, 20, Some(20)), None);
        // One more other learner: 30 others, 20 of them lower than 20 → 66 %.
        dist[5] = 1;
        assert_eq!(exceeds_percent(&dist, 20, Some(20)), Some(66));
        // Equal scores are not lower; a perfect score exceeds everyone below 40.
        assert_eq!(exceeds_percent(&dist, 10, Some(20)), Some(3));
        assert_eq!(exceeds_percent(&dist, 40, Some(20)), Some(100));
        assert_eq!(exceeds_percent(&dist, 0, Some(20)), Some(0));
        // Without a first attempt of one's own on record, everyone counted is someone else.
        assert_eq!(exceeds_percent(&dist, 20, None), Some(64));
    }

    #[test]
    fn the_overall_clb_is_the_lowest_skill() {
        assert_eq!(overall_clb([9, 7, 10, 8]), Some(7));
        assert_eq!(overall_clb([]), None);
    }
}
