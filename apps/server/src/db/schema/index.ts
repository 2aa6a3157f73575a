export * from './accounts';
export * from './events';
export * from './system';
export * from './subscriptions';
export * from './proposals';
export * from './reviews';
export * from './moderation';
export * from './scores';
