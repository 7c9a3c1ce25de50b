export * from './channels';
export * from './contract';
