import { names } from '../aws/names.ts';
import { Table } from './db.ts';

export const dataTable = new Table(names.dataTable);
export const authTable = new Table(names.authTable);
