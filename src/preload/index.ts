import { contextBridge, ipcRenderer } from 'electron';
import { buildBridge } from './buildBridge';

contextBridge.exposeInMainWorld('bridge', buildBridge(ipcRenderer));
