// A setup file of the projects that start gateways: their in-memory databases load one migrated
// template instead of running initdb and every migration per gateway (seconds of CPU each).
import { startInMemoryDatabasesMigrated } from '@blockcatch/gateway/testing';

startInMemoryDatabasesMigrated();
