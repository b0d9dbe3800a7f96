/**
 * A file open in the lab follows the file on disk while it has no unsaved edits.
 *
 * `spec2code reset` (or any program) may rewrite lab/agent.py or a notebook while it is open. Stock JupyterLab
 * keeps showing the old text, and the next save offers to overwrite the new file with it. Every POLL_MS this
 * plugin asks the server, for each open document, whether the file on disk differs from the one it loaded (by
 * hash where the server gives one, else by modification time, as JupyterLab's own save does). If it does and the
 * document has no unsaved edits, the document is reloaded from disk. A document with unsaved edits is left alone:
 * saving it brings up JupyterLab's own "File Changed" dialog.
 */

import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import type { DocumentRegistry, IDocumentWidget } from '@jupyterlab/docregistry';

const POLL_MS = 2000; // how often the open documents are compared with the disk
const MARGIN_MS = 500; // modification times closer than this count as the same (JupyterLab's own margin)

type Context = DocumentRegistry.Context;

/** The documents open in the main area, once each (a document may be open in several tabs). */
function openDocuments(app: JupyterFrontEnd): Set<Context> {
  const found = new Set<Context>();
  for (const widget of app.shell.widgets('main')) {
    if (!('context' in widget)) {
      continue; // not a document: a launcher, a terminal, ...
    }
    const context = (widget as IDocumentWidget).context;
    if (context.isReady && !context.isDisposed) {
      found.add(context);
    }
  }
  return found;
}

/** Whether the file on disk is not the one the document last loaded or saved. */
async function changedOnDisk(app: JupyterFrontEnd, context: Context): Promise<boolean> {
  const loaded = context.contentsModel;
  if (!loaded) {
    return false;
  }
  const disk = await app.serviceManager.contents.get(context.path, { content: false, hash: true });
  if (loaded.hash && disk.hash) {
    return loaded.hash !== disk.hash;
  }
  return new Date(disk.last_modified).getTime() - new Date(loaded.last_modified).getTime() > MARGIN_MS;
}

/** Reload every open document that has no unsaved edits and has changed on disk. */
async function followTheDisk(app: JupyterFrontEnd): Promise<void> {
  for (const context of openDocuments(app)) {
    if (context.model.dirty) {
      continue;
    }
    try {
      if ((await changedOnDisk(app, context)) && !context.model.dirty && !context.isDisposed) {
        await context.revert();
        context.model.dirty = false; // what is shown is what is on disk
      }
    } catch {
      // The file was moved or deleted, or the server is away: JupyterLab says so itself; try again next round.
    }
  }
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'spec2code-reload-from-disk:plugin',
  description: 'Reload an open file that changed on disk, when it has no unsaved edits.',
  autoStart: true,
  activate: (app: JupyterFrontEnd): void => {
    let busy = false;
    window.setInterval(async () => {
      if (busy || document.visibilityState === 'hidden') {
        return;
      }
      busy = true;
      try {
        await followTheDisk(app);
      } finally {
        busy = false;
      }
    }, POLL_MS);
  }
};

export default plugin;
