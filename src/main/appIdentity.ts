/** Must match `appId` in electron-builder.yml: the OS keys the keychain entries and app data by it. */
export const APP_ID = 'app.chatbot-platform.desktop';
export const PRODUCT_NAME = 'Chatbot Platform';
