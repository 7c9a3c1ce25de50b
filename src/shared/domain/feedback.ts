/** Feedback on chat answers (issue 23): a member's thumbs up or down, with an optional reason for down. */
export const FEEDBACK_RATINGS = ['up', 'down'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** Why an answer was rated down; `other` comes with the member's own words. */
export const FEEDBACK_REASONS = ['wrong', 'unhelpful', 'unsafe', 'other'] as const;
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number];

/** Longest comment a member may add to a down rating, in characters. */
export const FEEDBACK_COMMENT_MAX = 1000;

/** Comments shown per page in the Studio's compact feedback section. */
export const CREATOR_FEEDBACK_PAGE_SIZE = 5;
