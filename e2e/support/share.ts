// What Android's share sheet does when a person shares into the installed app: a multipart POST of a
// title, text, a link and a file to the manifest's share_target action.
import type { Page } from '@playwright/test';

/** Posts the share sheet's form (the file is list.txt, "shopping list: eggs, milk"). */
export async function shareFromAnotherApp(page: Page, url: string): Promise<void> {
  await page.evaluate((url) => {
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = '/share-target';
    form.enctype = 'multipart/form-data';
    for (const [name, value] of [
      ['title', 'A page'],
      ['text', 'Look at this'],
      ['url', url],
    ] as const) {
      const input = document.createElement('input');
      input.name = name;
      input.value = value;
      form.append(input);
    }
    const files = document.createElement('input');
    files.type = 'file';
    files.name = 'files';
    const transfer = new DataTransfer();
    transfer.items.add(new File(['shopping list: eggs, milk'], 'list.txt', { type: 'text/plain' }));
    files.files = transfer.files;
    form.append(files);
    document.body.append(form);
    form.submit();
  }, url);
}
