// Notification tags: one notification per lane (replaced, with a count), one per open question.
export const laneTag = (lane: string): string => `lane:${lane}`;
export const pickerTag = (pickerId: string): string => `picker:${pickerId}`;
export const PICKER_TAG_PREFIX = 'picker:';
